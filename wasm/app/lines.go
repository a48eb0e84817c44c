package app

import "strings"

// Lines keeps the lines of HTML last drawn into a container, one element
// a line (render's tree lines, the byte view's rows), so that a redraw
// after an edit touches only the lines that changed: setting the whole
// container costs the browser a style and layout pass over every line.
type Lines struct {
	last []string
}

// Update takes the container's new HTML, lines that each end in "\n". It
// returns the indexes of the lines that differ from the last HTML, to be
// replaced one by one, or whole when the container is to be set whole:
// the first time, after Reset, when the number of lines changed, or when
// more than half of the lines did.
func (ls *Lines) Update(h string) (changed []int, whole bool) {
	prev := ls.last
	ls.last = strings.SplitAfter(h, "\n")
	if n := len(ls.last); n > 0 && ls.last[n-1] == "" {
		ls.last = ls.last[:n-1]
	}
	if prev == nil || len(prev) != len(ls.last) {
		return nil, true
	}
	for i, l := range ls.last {
		if l != prev[i] {
			if changed = append(changed, i); len(changed) > len(prev)/2 {
				return nil, true
			}
		}
	}
	return changed, false
}

// Line returns line i of the last HTML given to Update, without its "\n".
func (ls *Lines) Line(i int) string { return strings.TrimSuffix(ls.last[i], "\n") }

// Reset forgets the last lines: the next Update says whole.
func (ls *Lines) Reset() { ls.last = nil }
