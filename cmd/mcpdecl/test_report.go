package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/testrun"
)

// report writes the results in the chosen format, then the summary line:
// on stdout after text and annotations, on stderr after a JSON or JUnit
// document, which stays whole. Just above the summary, on its stream, a
// line for each configuration whose tests did not run says why, so that
// a summary of fewer tests than written never stands alone.
func (c *testCmd) report(s streams, results []*testrun.Result, broken []notRun) error {
	w := s.out
	switch c.Format {
	case "json", "junit":
		write := writeTestJSON
		if c.Format == "junit" {
			write = writeJUnit
		}
		if err := write(s.out, results); err != nil {
			return err
		}
		w = s.err
	case "github":
		writeTestGitHub(s.out, results)
	default:
		writeTestText(s.out, results, c.Verbose)
	}
	for _, n := range broken {
		fmt.Fprintln(w, n.line())
	}
	fmt.Fprintln(w, summary(results))
	return nil
}

func writeTestText(w io.Writer, results []*testrun.Result, verbose bool) {
	for _, r := range results {
		where := fmt.Sprintf("%s:%d", r.Case.Range.Filename, r.Case.Range.Start.Line)
		switch r.Status {
		case testrun.Failed:
			fmt.Fprintf(w, "--- FAIL: %s (%s)\n", r.Case.Name, where)
			for _, p := range r.Problems {
				fmt.Fprintf(w, "    %s\n", p)
			}
			if r.Seen != "" {
				fmt.Fprintf(w, "    the client received:\n%s", indentLines(r.Seen, "      "))
			}
		case testrun.Skipped:
			fmt.Fprintf(w, "--- SKIP: %s (%s): %s\n", r.Case.Name, where, r.Problems[0])
		default:
			if verbose {
				fmt.Fprintf(w, "ok   %s (%s)\n", r.Case.Name, where)
			}
		}
	}
}

func indentLines(s, indent string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(indent + l)
		}
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}

type testJSON struct {
	Name     string   `json:"name"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Config   string   `json:"config"`
	Status   string   `json:"status"`
	Problems []string `json:"problems,omitempty"`
	Seen     string   `json:"seen,omitempty"`
	Seconds  float64  `json:"seconds"`
}

func writeTestJSON(w io.Writer, results []*testrun.Result) error {
	out := struct {
		Tests   []testJSON `json:"tests"`
		Passed  int        `json:"passed"`
		Failed  int        `json:"failed"`
		Skipped int        `json:"skipped"`
	}{Tests: []testJSON{}, Passed: countStatus(results, testrun.Passed), Failed: countStatus(results, testrun.Failed), Skipped: countStatus(results, testrun.Skipped)}
	for _, r := range results {
		rng := r.Case.Range
		out.Tests = append(out.Tests, testJSON{Name: r.Case.Name, File: rng.Filename, Line: rng.Start.Line, Column: rng.Start.Column,
			Config: r.Suite.Name, Status: string(r.Status), Problems: r.Problems, Seen: r.Seen, Seconds: r.Duration.Seconds()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// The JUnit XML report: one testsuite per configuration.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Line      int           `xml:"line,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure"`
	Skipped   *junitMessage `xml:"skipped"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(w io.Writer, results []*testrun.Result) error {
	doc := junitSuites{Tests: len(results), Failures: countStatus(results, testrun.Failed), Skipped: countStatus(results, testrun.Skipped)}
	index := map[*testrun.Suite]int{}
	for _, r := range results {
		i, ok := index[r.Suite]
		if !ok {
			i = len(doc.Suites)
			index[r.Suite] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: r.Suite.Name})
		}
		s := &doc.Suites[i]
		s.Tests++
		tc := junitCase{Name: r.Case.Name, Classname: r.Suite.Name, File: r.Case.Range.Filename, Line: r.Case.Range.Start.Line,
			Time: fmt.Sprintf("%.3f", r.Duration.Seconds())}
		switch r.Status {
		case testrun.Failed:
			s.Failures++
			tc.Failure = &junitMessage{Message: r.Problems[0], Text: strings.Join(r.Problems, "\n") + "\n" + r.Seen}
		case testrun.Skipped:
			s.Skipped++
			tc.Skipped = &junitMessage{Message: r.Problems[0]}
		}
		s.Cases = append(s.Cases, tc)
	}
	for i := range doc.Suites {
		var total float64
		for _, r := range results {
			if index[r.Suite] == i {
				total += r.Duration.Seconds()
			}
		}
		doc.Suites[i].Time = fmt.Sprintf("%.3f", total)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func writeTestGitHub(w io.Writer, results []*testrun.Result) {
	for _, r := range results {
		if r.Status != testrun.Failed {
			continue
		}
		rng := r.Case.Range
		props := strings.Join([]string{"file=" + diagtext.EscapeGitHubProp(rng.Filename), fmt.Sprintf("line=%d", rng.Start.Line),
			fmt.Sprintf("col=%d", rng.Start.Column), "title=" + diagtext.EscapeGitHubProp("test "+r.Case.Name)}, ",")
		fmt.Fprintf(w, "::error %s::%s\n", props, diagtext.EscapeGitHubData(strings.Join(r.Problems, "\n")))
	}
}
