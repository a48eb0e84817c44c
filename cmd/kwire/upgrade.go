package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"kwire/capture"
	"kwire/internal/textesc"
	"kwire/schemas/sets"
)

// checkRelease says whether a release is one kwire knows (--against).
func checkRelease(name string) error { return checkReleaseFlag("against", name) }

// checkReleaseFlag says whether the release a flag names is one kwire
// knows.
func checkReleaseFlag(flag, name string) error {
	if slices.Contains(sets.Names(), name) {
		return nil
	}
	return usageErr("--%s %q: no such release; kwire knows %s", flag, name, strings.Join(sets.Names(), ", "))
}

// parseAdvertised reads --advertised: host:port[,host:port...].
func parseAdvertised(s string) ([]string, error) {
	out, err := capture.ParseAdvertised(s)
	if err != nil {
		return nil, usageErr("--advertised: %v", err)
	}
	return out, nil
}

// reportJSON is the report's JSON line.
type reportJSON struct {
	Kind    string        `json:"kind"`
	Against string        `json:"against"`
	Release string        `json:"release"`
	Refused []refusedJSON `json:"refused"`
	Clients []clientJSON  `json:"clients"`
	Brokers []brokerJSON  `json:"brokers"`
}

type refusedJSON struct {
	APIKey     int16  `json:"api_key"`
	APIName    string `json:"api_name"`
	APIVersion int16  `json:"api_version"`
	Count      int    `json:"count"`
	Why        string `json:"why"`
	RemovedIn  string `json:"removed_in,omitempty"`
	KIP        string `json:"kip,omitempty"`
	Instead    *int16 `json:"instead,omitempty"`
}

type useJSON struct {
	APIKey     int16  `json:"api_key"`
	APIName    string `json:"api_name"`
	APIVersion int16  `json:"api_version"`
	Count      int    `json:"count"`
	Newest     *int16 `json:"newest,omitempty"`
}

type clientJSON struct {
	ClientID        string        `json:"client_id"`
	SoftwareName    string        `json:"software_name,omitempty"`
	SoftwareVersion string        `json:"software_version,omitempty"`
	Conns           []int         `json:"conn_ids"`
	Used            []useJSON     `json:"used"`
	Refused         []refusedJSON `json:"refused"`
	Hints           []useJSON     `json:"hints"`
}

type brokerJSON struct {
	Addr    string   `json:"addr"`
	Release string   `json:"release"`
	Matches []string `json:"matches"`
}

func refusals(rs []capture.Refusal) []refusedJSON {
	out := []refusedJSON{}
	for _, r := range rs {
		j := refusedJSON{APIKey: r.Key, APIName: r.API, APIVersion: r.Version, Count: r.Count, Why: r.Why, RemovedIn: r.RemovedIn.Name, KIP: r.KIP}
		if r.Instead >= 0 {
			v := r.Instead
			j.Instead = &v
		}
		out = append(out, j)
	}
	return out
}

// writeReport prints the release report: a JSON line, or the table
// form's paragraphs.
func writeReport(w *bufio.Writer, r *capture.Report, format string) {
	if format == "json" {
		j := reportJSON{Kind: "report", Against: r.Against.Name, Release: r.Against.String(), Refused: refusals(r.Refused), Clients: []clientJSON{}, Brokers: []brokerJSON{}}
		for _, c := range r.Clients {
			cj := clientJSON{ClientID: c.ID, SoftwareName: c.Software, SoftwareVersion: c.SoftwareVersion, Conns: c.Conns, Used: []useJSON{}, Refused: refusals(c.Refused), Hints: []useJSON{}}
			for _, u := range c.Used {
				cj.Used = append(cj.Used, useJSON{APIKey: u.Key, APIName: u.API, APIVersion: u.Version, Count: u.Count})
			}
			for _, h := range c.Hints {
				n := h.Newest
				cj.Hints = append(cj.Hints, useJSON{APIKey: h.Key, APIName: h.API, APIVersion: h.Version, Count: h.Count, Newest: &n})
			}
			j.Clients = append(j.Clients, cj)
		}
		for _, b := range r.Brokers {
			j.Brokers = append(j.Brokers, brokerJSON{Addr: b.Addr, Release: b.Release, Matches: append([]string{}, b.Matches...)})
		}
		out, _ := json.Marshal(j)
		w.Write(append(out, '\n'))
		return
	}
	w.WriteString("\n")
	for _, l := range r.Lines() {
		w.WriteString(textesc.Escape(l) + "\n")
	}
}

// leakJSON is a finding's JSON line.
type leakJSON struct {
	Kind       string `json:"kind"`
	N          int    `json:"n"`
	ConnID     int    `json:"conn_id"`
	APIKey     int16  `json:"api_key"`
	APIName    string `json:"api_name"`
	APIVersion int16  `json:"api_version"`
	Path       string `json:"path"`
	Host       string `json:"host"`
	Port       int32  `json:"port"`
	NodeID     int32  `json:"node_id"`
	Why        string `json:"why"`
}

// writeLeaks prints the audit's findings: JSON lines, or a paragraph.
func writeLeaks(w *bufio.Writer, leaks []capture.Leak, checked int, advertised []string, format string) {
	if format == "json" {
		for _, l := range leaks {
			b, _ := json.Marshal(leakJSON{Kind: "leak", N: l.N, ConnID: l.Conn, APIKey: l.Key, APIName: capture.APIName(l.Key), APIVersion: l.Version,
				Path: l.Path, Host: l.Host, Port: l.Port, NodeID: l.Node, Why: l.Why})
			w.Write(append(b, '\n'))
		}
		return
	}
	w.WriteString("\n")
	if len(leaks) == 0 {
		w.WriteString(textesc.Escape(fmt.Sprintf("No address leaks: %s in the responses, each one of %s.", plural(checked, "endpoint"), strings.Join(advertised, ", "))) + "\n")
		return
	}
	w.WriteString(textesc.Escape(fmt.Sprintf("%s in %s of the responses (advertised: %s):", plural(len(leaks), "address leak"), plural(checked, "endpoint"), strings.Join(advertised, ", "))) + "\n")
	for _, l := range leaks {
		w.WriteString(textesc.Escape(fmt.Sprintf("  frame %d %s v%d %s = %s (node %d): %s", l.N, capture.APIName(l.Key), l.Version, l.Path, l.Addr(), l.Node, l.Why)) + "\n")
	}
}
