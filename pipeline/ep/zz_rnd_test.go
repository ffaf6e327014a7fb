package ep
import ("testing";"os";"encoding/json";"strings")
func TestZZRnd(t *testing.T) {
	b, _ := os.ReadFile("/tmp/rnd/du.json")
	var du map[string][][2]any
	json.Unmarshal(b, &du)
	diffs := 0
	for p, want := range du {
		if want == nil { continue }
		d, err := Load(p, "")
		if err != nil { t.Fatal(err) }
		var got [][2]any
		for _, s := range d.Sections { got = append(got, [2]any{float64(s.Level), s.Title}) }
		gj, _ := json.Marshal(got); wj, _ := json.Marshal(want)
		if string(gj) != string(wj) && !(len(got) == 0 && len(want) == 0) {
			diffs++
			if diffs <= 40 && !strings.HasPrefix(string(must(os.ReadFile(p))), "Key: v") { src, _ := os.ReadFile(p); t.Logf("%s\n got %s\nwant %s\n%s", p, gj, wj, strings.ReplaceAll(string(src), "\n", "⏎\n")) }
		}
	}
	t.Logf("diffs %d of %d", diffs, len(du))
}
func must(b []byte, _ error) []byte { return b }
