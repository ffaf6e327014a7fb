package baseimage

import (
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	none := func(string) string { return "" }
	over := func(k string) string {
		switch k {
		case EnvVar:
			return "my/base:dev"
		case Java.EnvVar:
			return "my/java:dev"
		}
		return ""
	}
	tests := []struct {
		image, language string
		getenv          func(string) string
		want            string
	}{
		{Name, "", none, ContentTag()},
		{Name, "Go", none, ContentTag()},
		{Name, "", over, "my/base:dev"},
		{Name, "java", none, Java.ContentTag(nil)},
		{Name, "Java", over, "my/java:dev"},
		{"golang:1.22-bookworm", "Go", over, "golang:1.22-bookworm"},
		{Name + ":pinned", "Java", none, Name + ":pinned"},
	}
	for _, tt := range tests {
		if got := Resolve(tt.image, tt.language, tt.getenv); got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tt.image, tt.language, got, tt.want)
		}
	}
	for img, want := range map[string]*Image{ContentTag(): Common, Name + ":other": Common, Java.ContentTag(nil): Java,
		Name + ":java-bookworm-0123456789ab": Java, "golang:1.22": nil} {
		if got := Offline(img, none); got != want {
			t.Errorf("Offline(%q) = %v, want %v", img, got, want)
		}
	}
	if !IsOffline("my/base:dev", over) || !IsOffline("my/java:dev", over) {
		t.Error("the overriding tags are offline images")
	}
}

// TestTags: the tags hash what builds the images; a child's tag follows
// its parent's.
func TestTags(t *testing.T) {
	if !strings.HasPrefix(ContentTag(), Name+":bookworm-") || len(ContentTag()) != len(Name+":bookworm-")+12 {
		t.Errorf("common tag %q", ContentTag())
	}
	j := Java.ContentTag(nil)
	if !strings.HasPrefix(j, Name+":java-bookworm-") || len(j) != len(Name+":java-bookworm-")+12 {
		t.Errorf("java tag %q", j)
	}
	other := *Java
	other.script = append([]byte("# changed\n"), Java.script...)
	if other.ContentTag(nil) == j {
		t.Error("a changed script keeps the tag")
	}
	if Java.ContentTag(func(k string) string {
		if k == EnvVar {
			return "my/base:dev"
		}
		return ""
	}) == j {
		t.Error("the Java tag does not follow its parent's")
	}
	for _, im := range Images {
		if im.Parent != nil && ForLanguage(im.Languages[0]) != im {
			t.Errorf("%s: ForLanguage(%q) does not find it", im.Key, im.Languages[0])
		}
		if ByKey(im.Key) != im {
			t.Errorf("ByKey(%q)", im.Key)
		}
	}
	if ForLanguage("C#") != nil || ForLanguage("go") != Common || ForLanguage("rust") != Rust {
		t.Error("ForLanguage")
	}
	if Java.BuildCommand() != "lolbench env base --lang java" || Common.BuildCommand() != "lolbench env base" {
		t.Error("BuildCommand")
	}
}

// TestCFamily: one image serves C, C++ and their headers, picked by a
// language name or by its key and aliases (lolbench env base --lang c|cpp).
func TestCFamily(t *testing.T) {
	for _, k := range []string{"cfamily", "cpp", "CXX"} {
		if ByKey(k) != CFamily {
			t.Errorf("ByKey(%q) = %v, want the C family image", k, ByKey(k))
		}
	}
	for _, l := range []string{"c", "C++", "C/C++ Header"} {
		if ForLanguage(l) != CFamily {
			t.Errorf("ForLanguage(%q) is not the C family image", l)
		}
	}
	tag := Resolve(Name, "C++", nil)
	if !strings.HasPrefix(tag, Name+":cfamily-bookworm-") || Offline(tag, nil) != CFamily || CFamily.Parent != Common {
		t.Errorf("Resolve(C++) = %q", tag)
	}
	if ForLanguage("C#") != nil {
		t.Error("C# has no offline image: Debian has no .NET SDK")
	}
}
