package app_test

import (
	"fmt"

	"kwire/codec"
	"kwire/wasm/app"
)

// Edit a field by its path and read the new bytes and the link.
func ExampleState_SetField() {
	s, err := app.New("trunk", "JoinGroup")
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Select("trunk", "JoinGroup", 9, codec.Request); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(s.Bytes), s.Query())
	if err := s.SetField("b:GroupId", "g1"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(s.Bytes), s.Query())
	fmt.Println(s.SetField("b:SessionTimeoutMs", "1e10"))
	// Output:
	// 33 set=trunk&api=JoinGroup&v=9&dir=request
	// 35 set=trunk&api=JoinGroup&v=9&dir=request&hex=0000001f000b0009000000000000000367310000000000000000010101020101000100
	// int32 takes a whole number from -2147483648 to 2147483647
}
