package app

import (
	"fmt"
	"os"
	"testing"

	"kwire/schemas/sets"
)

// TestMain, in the browser build (GOOS=js, run in node), provides the
// schema sets as the page does: from the bundle of the built site.
func TestMain(m *testing.M) {
	b, err := os.ReadFile("../../dist/" + sets.BundleName)
	if err == nil {
		err = sets.Provide(b)
	}
	if err != nil {
		fmt.Println("the js/wasm tests of wasm/app need the built site (./build.sh):", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
