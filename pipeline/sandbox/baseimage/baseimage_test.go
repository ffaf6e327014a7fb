package baseimage

import "testing"

func TestResolve(t *testing.T) {
	none := func(string) string { return "" }
	over := func(k string) string {
		if k == EnvVar {
			return "my/base:dev"
		}
		return ""
	}
	tests := []struct {
		image  string
		getenv func(string) string
		want   string
	}{
		{Name, none, ContentTag()},
		{Name, over, "my/base:dev"},
		{"golang:1.22-bookworm", over, "golang:1.22-bookworm"},
		{Name + ":pinned", none, Name + ":pinned"},
	}
	for _, tt := range tests {
		if got := Resolve(tt.image, tt.getenv); got != tt.want {
			t.Errorf("Resolve(%q) = %q, want %q", tt.image, got, tt.want)
		}
	}
	for img, want := range map[string]bool{ContentTag(): true, Name + ":other": true, "golang:1.22": false} {
		if got := IsOffline(img, none); got != want {
			t.Errorf("IsOffline(%q) = %v", img, got)
		}
	}
	if !IsOffline("my/base:dev", over) {
		t.Error("the overriding tag is the offline base")
	}
}
