// Package draftcodec runs the drafts of schemas/draft through the codec:
// Load checks that each draft request and response encodes its smallest
// frame (a diagnostic when not), NewFrame builds that frame, and Compare
// adds to schemas/draft's comparison the sizes of the smallest instances
// of both sides. schemas/draft is below the codec and does not import it.
package draftcodec

import (
	"kwire/codec"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/schemas/draft"
)

// Load reads a paste as draft.Load does, with the encode check: each
// request and response of the draft's set encodes its smallest instance
// at its latest version, and its smallest frame when the set has headers;
// what fails is an error diagnostic at the schema.
func Load(src []byte, o draft.Options) *draft.Draft {
	o.Check = encodes
	return draft.Load(src, o)
}

// encodes is Load's check (draft.Options.Check).
func encodes(set *schemas.Set, a *schemas.API, dir schemas.Direction, m *schemas.Message, v int16) error {
	plan, err := codec.PlanFor(m, v)
	if err == nil {
		_, err = plan.Encode(plan.Smallest())
	}
	if err == nil && set.RequestHeader != nil && set.ResponseHeader != nil {
		var f *codec.Frame
		if f, err = codec.NewFrame(set, a, v, dir); err == nil {
			_, err = f.Encode()
		}
	}
	return err
}

// NewFrame returns the smallest frame of a draft API at its latest
// version, as codec.NewFrame does.
func NewFrame(d *draft.Draft, api string, dir codec.Direction) (*codec.Frame, error) {
	a, err := d.LookupAPI(api)
	if err != nil {
		return nil, err
	}
	m := dir.Schema(a)
	if m == nil {
		return nil, xfmt.Errorf("the draft has no %s for %s", dir, a.Name)
	}
	return codec.NewFrame(d.Set, a, m.ValidVersions.Hi, dir)
}

// Diff is draft.Diff with the smallest instances of both sides.
type Diff struct {
	*draft.Diff
	// DraftBytes and ReleasedBytes are the smallest instances at the
	// versions compared: whole frames (size, header, body: codec.NewFrame)
	// for requests and responses, bodies (Plan.Smallest) for other
	// schemas. Nil when one does not encode (Err says why).
	DraftBytes, ReleasedBytes []byte
	Err                       error
}

// SizeDelta is len(DraftBytes) - len(ReleasedBytes).
func (d *Diff) SizeDelta() int { return len(d.DraftBytes) - len(d.ReleasedBytes) }

// Compare diffs each schema of the draft that base also has, as
// draft.Compare does, and encodes the smallest instance of both sides.
func Compare(d *draft.Draft, base *schemas.Set) []*Diff {
	var out []*Diff
	for _, dd := range draft.Compare(d, base) {
		df := &Diff{Diff: dd}
		var err1, err2 error
		if dd.ReleasedAPI != nil {
			a, err := d.Set.LookupAPI(dd.API)
			if err == nil {
				df.DraftBytes, err1 = frameBytes(d.Set, a, dd.DraftVersion, dd.Dir)
			} else {
				err1 = err
			}
			df.ReleasedBytes, err2 = frameBytes(base, dd.ReleasedAPI, dd.ReleasedVersion, dd.Dir)
		} else {
			df.DraftBytes, err1 = bodyBytes(dd.Draft, dd.DraftVersion)
			df.ReleasedBytes, err2 = bodyBytes(dd.Released, dd.ReleasedVersion)
		}
		switch {
		case err1 != nil:
			df.Err = xfmt.Errorf("draft: %w", err1)
		case err2 != nil:
			df.Err = xfmt.Errorf("%s: %w", base.Name, err2)
		}
		out = append(out, df)
	}
	return out
}

func frameBytes(set *schemas.Set, a *schemas.API, v int16, dir codec.Direction) ([]byte, error) {
	f, err := codec.NewFrame(set, a, v, dir)
	if err != nil {
		return nil, err
	}
	return f.Encode()
}

func bodyBytes(m *schemas.Message, v int16) ([]byte, error) {
	p, err := codec.PlanFor(m, v)
	if err != nil {
		return nil, err
	}
	return p.Encode(p.Smallest())
}
