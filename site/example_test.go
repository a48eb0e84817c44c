package site_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kwire/schemas/sets"
	"kwire/site"
)

func ExampleBuild() {
	out, err := os.MkdirTemp("", "kwire-docs-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(out)
	st, err := site.Build(site.Options{Out: out, NoGzip: true})
	if err != nil {
		panic(err)
	}
	_, err = os.Stat(filepath.Join(out, "apis", "JoinGroup", "v8.html"))
	_, err2 := os.Stat(filepath.Join(out, "apis", "releases.html"))
	fmt.Println(st.Pages > 350, err == nil && err2 == nil)
	// Output: true true
}

func ExampleHighlight() {
	var b strings.Builder
	site.Highlight(&b, `{ "apiKey": 11, // JoinGroup`)
	fmt.Println(b.String())
	// Output: { <span class="jk">&#34;apiKey&#34;</span>: <span class="jn">11</span>, <span class="jc">// JoinGroup</span>
}

func ExampleLead() {
	set, _ := sets.Load(sets.Newest())
	api, _ := set.LookupAPI("ApiVersions")
	lead := site.Lead(api, 2)
	fmt.Println(lead[strings.Index(lead, "Version 2"):])
	// Output: Version 2 is not a flexible version, so structs carry no tagged fields, strings carry int16 length prefixes and byte arrays and arrays int32 ones. Sizes below include the leading int32 size prefix.
}
