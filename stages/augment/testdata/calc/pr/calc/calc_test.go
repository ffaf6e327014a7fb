package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("Add(2, 3) != 5")
	}
}

func TestClamp(t *testing.T) {
	got, err := Clamp(15, 0, 10)
	if err != nil || got != 10 {
		t.Fatalf("Clamp(15, 0, 10) = %d, %v", got, err)
	}
}
