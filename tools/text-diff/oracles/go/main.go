// Oracle: Go's mime package (WordDecoder with golang.org/x/text charsets, ParseMediaType).
//
// Reads JSON lines {"id", "kind", "in" (latin-1 string of the input bytes), "label"} on stdin
// and writes JSON lines {"id", "go": {"value"|"params"|"error"}}. Build in GOPATH mode:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o /tmp/textdiff-go main.go
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

type inCase struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	In    string `json:"in"`
	Label string `json:"label"`
}

type answer struct {
	Value  *string            `json:"value,omitempty"`
	Params *map[string]string `json:"params,omitempty"`
	Error  string             `json:"error,omitempty"`
}

func lookup(label string) encoding.Encoding {
	l := strings.ToLower(strings.TrimSpace(label))
	switch l {
	case "hz-gb-2312":
		return simplifiedchinese.HZGB2312
	case "iso-2022-kr", "utf-7":
		return nil // not in golang.org/x/text
	}
	if e, err := htmlindex.Get(l); err == nil && e != nil {
		return e
	}
	if e, err := ianaindex.MIME.Encoding(l); err == nil && e != nil {
		return e
	}
	return nil
}

func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	l := strings.ToLower(strings.TrimSpace(charset))
	if l == "iso-2022-kr" {
		return nil, fmt.Errorf("unsupported charset %q", charset)
	}
	if l == "iso-2022-jp" {
		return japanese.ISO2022JP.NewDecoder().Reader(input), nil
	}
	e := lookup(charset)
	if e == nil {
		return nil, fmt.Errorf("unknown charset %q", charset)
	}
	return e.NewDecoder().Reader(input), nil
}

func latin1Bytes(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return b
}

func clean(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func main() {
	dec := &mime.WordDecoder{CharsetReader: charsetReader}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var c inCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		data := string(latin1Bytes(c.In))
		var a answer
		switch c.Kind {
		case "header":
			v, err := dec.DecodeHeader(data)
			if err != nil {
				a.Error = err.Error()
			} else {
				v = clean(v)
				a.Value = &v
			}
		case "param":
			_, params, err := mime.ParseMediaType(data)
			if err != nil {
				a.Error = err.Error()
			} else {
				m := map[string]string{}
				for k, v := range params {
					m[strings.ToLower(k)] = clean(v)
				}
				a.Params = &m
			}
		case "charset":
			var e encoding.Encoding
			if c.Label == "iso-2022-jp" {
				e = japanese.ISO2022JP
			} else if c.Label != "iso-2022-kr" && c.Label != "utf-7" {
				e = lookup(c.Label)
			}
			if e == nil {
				a.Error = "unsupported charset"
			} else {
				v, err := e.NewDecoder().String(data)
				if err != nil {
					a.Error = err.Error()
				} else {
					v = clean(v)
					a.Value = &v
				}
			}
		default:
			a.Error = "kind not handled"
		}
		if err := enc.Encode(map[string]interface{}{"id": c.ID, "go": a}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
