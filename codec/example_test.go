package codec_test

import (
	"encoding/hex"
	"fmt"
	"os"

	"kwire/codec"
	"kwire/schemas/sets"
)

// A request frame is encoded from the smallest instance of its API and
// decoded again without saying what it is: its header names the API and
// version. The tree says where every byte comes from.
func Example() {
	set, err := sets.Load("trunk")
	if err != nil {
		panic(err)
	}
	api, err := set.LookupAPI("JoinGroup")
	if err != nil {
		panic(err)
	}
	f, err := codec.NewFrame(set, api, 9, codec.Request)
	if err != nil {
		panic(err)
	}
	b, err := f.Encode()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes: %x\n", len(b), b)

	g, fl, err := codec.Decode(b, codec.DecodeOptions{Set: set, Dir: codec.Request})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.API.Name, "v", g.Version, g.Dir)
	fl.WriteText(os.Stdout, 0, nil)
	// Output:
	// 33 bytes: 0000001d000b000900000000000000010000000000000000010101020101000100
	// JoinGroup v 9 request
	// JoinGroupRequest message v9 [0x0000, 33B]
	// +-- Frame [0x0000, 4B] length-delimited framing
	// |   +-- size int32 = 29 [0x0000, 4B] number of bytes that follow, patched after encoding
	// +-- RequestHeader v2 [0x0004, 11B] common request header
	// |   +-- request_api_key int16 = 11 (JoinGroup) [0x0004, 2B] numeric id of the API being invoked
	// |   +-- request_api_version int16 = 9 [0x0006, 2B] version of the API being invoked
	// |   +-- correlation_id int32 = 0 [0x0008, 4B] echoed back by the broker in the response
	// |   +-- client_id nullable_string = "" (int16 len=0) [0x000c, 2B] always a non-flexible int16-prefixed string
	// |   +-- tagged_fields uvarint = 0 [0x000e, 1B] number of tagged fields in the header
	// +-- JoinGroupRequest struct [0x000f, 18B] message body, version 9
	//     +-- GroupId string = "" (compact, len+1=1) [0x000f, 1B] The group identifier.
	//     +-- SessionTimeoutMs int32 = 0 [0x0010, 4B] The coordinator considers the consumer dead if it receives no heartbeat aft...
	//     +-- RebalanceTimeoutMs int32 = 0 [0x0014, 4B] The maximum time in milliseconds that the coordinator will wait for each me...
	//     +-- MemberId string = "" (compact, len+1=1) [0x0018, 1B] The member id assigned by the group coordinator.
	//     +-- GroupInstanceId string = "" (compact, len+1=1) [0x0019, 1B] The unique identifier of the consumer instance provided by end user.
	//     +-- ProtocolType string = "" (compact, len+1=1) [0x001a, 1B] The unique name the for class of protocols implemented by the group we want...
	//     +-- Protocols []JoinGroupRequestProtocol = 1 element [0x001b, 4B] The list of protocols that the member supports.
	//     |   +-- length uvarint = 2 (compact, n+1) [0x001b, 1B] one element follows
	//     |   +-- JoinGroupRequestProtocol[0] JoinGroupRequestProtocol = struct [0x001c, 3B]
	//     |       +-- Name string = "" (compact, len+1=1) [0x001c, 1B] The protocol name.
	//     |       +-- Metadata bytes = empty (compact, len+1=1) [0x001d, 1B] The protocol metadata.
	//     |       +-- tagged_fields uvarint = 0 [0x001e, 1B] number of tagged fields in this struct
	//     +-- Reason string = "" (compact, len+1=1) [0x001f, 1B] The reason why the member (re-)joins the group.
	//     +-- tagged_fields uvarint = 0 [0x0020, 1B] number of tagged fields in this struct
}

// Decode keeps what it read before an error and says where the error is:
// here the frame is cut inside the request's GroupId.
func ExampleDecode_truncated() {
	set, err := sets.Load("trunk")
	if err != nil {
		panic(err)
	}
	b, err := hex.DecodeString("0000001d" + "000b" + "0009" + "00000000" + "ffff" + "00" + "05" + "6772")
	if err != nil {
		panic(err)
	}
	_, fl, err := codec.Decode(b, codec.DecodeOptions{Set: set, Dir: codec.Request})
	fmt.Println(err)
	fl.WriteText(os.Stdout, 0, nil)
	// Output:
	// offset 15 (0x000f): GroupId: bad length: string length 4 exceeds the 2 bytes left (the frame is truncated: its size says 29 bytes follow, 14 do)
	// JoinGroupRequest message v9 [0x0000, 18B]
	// +-- Frame [0x0000, 4B] length-delimited framing
	// |   +-- size int32 = 29 [0x0000, 4B] number of bytes that follow, patched after encoding
	// +-- RequestHeader v2 [0x0004, 11B] common request header
	// |   +-- request_api_key int16 = 11 (JoinGroup) [0x0004, 2B] numeric id of the API being invoked
	// |   +-- request_api_version int16 = 9 [0x0006, 2B] version of the API being invoked
	// |   +-- correlation_id int32 = 0 [0x0008, 4B] echoed back by the broker in the response
	// |   +-- client_id nullable_string = null (int16 len=-1) [0x000c, 2B] always a non-flexible int16-prefixed string
	// |   +-- tagged_fields uvarint = 0 [0x000e, 1B] number of tagged fields in the header
	// +-- JoinGroupRequest struct [0x000f, 3B] message body, version 9
	//     +-- GroupId error [0x000f, 3B] ERROR: bad length: string length 4 exceeds the 2 bytes left
}

// A response names neither its API nor its version, so the caller does.
func ExampleDecode_response() {
	set, err := sets.Load("trunk")
	if err != nil {
		panic(err)
	}
	api, err := set.LookupAPI("ApiVersions")
	if err != nil {
		panic(err)
	}
	f, err := codec.NewFrame(set, api, 3, codec.Response)
	if err != nil {
		panic(err)
	}
	b, err := f.Encode()
	if err != nil {
		panic(err)
	}
	g, _, err := codec.Decode(b, codec.DecodeOptions{Set: set, API: api, Version: 3, Dir: codec.Response})
	if err != nil {
		panic(err)
	}
	j, err := g.JSON(len(b))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(j))
	// Output:
	// {
	//   "api_key": 18,
	//   "api_name": "ApiVersions",
	//   "version": 3,
	//   "direction": "response",
	//   "set": "trunk",
	//   "header": {
	//     "CorrelationId": 0
	//   },
	//   "body": {
	//     "ErrorCode": 0,
	//     "ApiKeys": [
	//       {
	//         "ApiKey": 0,
	//         "MinVersion": 0,
	//         "MaxVersion": 0
	//       }
	//     ],
	//     "ThrottleTimeMs": 0,
	//     "SupportedFeatures": [],
	//     "FinalizedFeaturesEpoch": -1,
	//     "FinalizedFeatures": [],
	//     "ZkMigrationReady": false
	//   },
	//   "size": 23
	// }
}

// A struct value's List holds one value per schema field, at the index
// its plan gives; List shares the value's memory, so setting an element
// changes the value.
func ExampleValue() {
	set, err := sets.Load("trunk")
	if err != nil {
		panic(err)
	}
	api, err := set.LookupAPI("JoinGroup")
	if err != nil {
		panic(err)
	}
	p, err := codec.PlanFor(api.Request, 9)
	if err != nil {
		panic(err)
	}
	v := p.Smallest()
	fields := v.List()
	fields[p.Root.Field("GroupId").Index] = codec.String("payments")
	fields[p.Root.Field("SessionTimeoutMs").Index] = codec.Int(45000)
	protocols := p.Root.Field("Protocols")
	fields[protocols.Index] = codec.List(nil) // no protocols
	b, err := p.Encode(v)
	if err != nil {
		panic(err)
	}
	back, n, err := p.Decode(b)
	if err != nil {
		panic(err)
	}
	got := back.List()
	fmt.Printf("%d bytes: %x\n", n, b)
	fmt.Println(got[p.Root.Field("GroupId").Index].Str(), got[p.Root.Field("SessionTimeoutMs").Index].Int(), len(got[protocols.Index].List()))
	fmt.Println(back.Equal(v), got[p.Root.Field("GroupInstanceId").Index].IsNull())
	// Output:
	// 23 bytes: 097061796d656e74730000afc800000000010101010100
	// payments 45000 0
	// true false
}
