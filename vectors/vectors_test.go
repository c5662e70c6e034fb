package vectors_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/attest-harness/attest-harness/vectors"
)

// Every embedded suite decodes strictly (no member the structs lack, known vocabulary), and encodes back to the
// same JSON value: so no member the structs drop or mistype either.
func TestEverySuiteDecodesStrictlyAndRoundTrips(t *testing.T) {
	names := vectors.Suites()
	if len(names) == 0 {
		t.Fatal("no suites embedded")
	}
	for _, name := range names {
		data, err := vectors.ReadFile(name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		suite, err := vectors.DecodeStrict(data)
		if err != nil {
			t.Errorf("%s.json: %v", name, err)
			continue
		}
		var raw map[string]interface{}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		if got, want := len(suite.Cases), len(raw["cases"].([]interface{})); got != want || suite.NumberOfCases != want {
			t.Errorf("%s.json: %d cases decoded, numberOfCases %d, %d in the file", name, got, suite.NumberOfCases, want)
		}
		encoded, err := json.Marshal(suite)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]interface{}
		if err := json.Unmarshal(encoded, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(raw, back) {
			t.Errorf("%s.json does not survive decoding and encoding: the structs differ from the file", name)
		}
		loaded, err := vectors.Load(name)
		if err != nil || !reflect.DeepEqual(loaded, suite) {
			t.Errorf("Load(%q) differs from the strict decoding: %v", name, err)
		}
	}
}

// Inputs are bytes, each non-empty input at least one byte; the steps' kinds are described by the suite.
func TestStepInputsAreBytesOfDescribedKinds(t *testing.T) {
	all, err := vectors.LoadAll()
	if err != nil {
		t.Fatal(err)
	}
	for name, suite := range all {
		for _, c := range suite.Cases {
			for _, step := range c.Steps {
				if _, ok := suite.StepKinds[step.Kind]; !ok {
					t.Errorf("%s: case %s: step kind %s is not in stepKinds", name, c.ID, step.Kind)
				}
				if len(step.Inputs) == 0 {
					t.Errorf("%s: case %s: a %s step without inputs", name, c.ID, step.Kind)
				}
				if c.TimeOf(step).IsZero() {
					t.Errorf("%s: case %s: no time", name, c.ID)
				}
			}
		}
	}
}

func TestSchemasAreEmbedded(t *testing.T) {
	for _, file := range vectors.SchemaFiles {
		data, err := vectors.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(data, &schema); err != nil || schema.ID == "" {
			t.Errorf("%s: %v (id %q)", file, err, schema.ID)
		}
	}
}

// A member the structs do not know fails the strict decoding and passes the lenient one.
func TestStrictDecodingCatchesDrift(t *testing.T) {
	data, err := vectors.ReadFile("step-up.json")
	if err != nil {
		t.Fatal(err)
	}
	var document map[string]interface{}
	if err := json.Unmarshal(data, &document); err != nil {
		t.Fatal(err)
	}
	step := document["cases"].([]interface{})[0].(map[string]interface{})["steps"].([]interface{})[0]
	step.(map[string]interface{})["newMember"] = 1
	drifted, err := json.Marshal(document)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vectors.DecodeStrict(drifted); err == nil || !strings.Contains(err.Error(), "newMember") {
		t.Errorf("strict decoding accepted an unknown member: %v", err)
	}
	if _, err := vectors.Decode(drifted); err != nil {
		t.Errorf("lenient decoding refused an unknown member: %v", err)
	}
	if _, err := vectors.Decode(bytes.Replace(data, []byte(vectors.Format), []byte("attest-harness-vectors/2"), 1)); err == nil {
		t.Error("a suite of another format decoded")
	}
	if _, err := vectors.Load("no-such-suite"); err == nil {
		t.Error("Load of an unknown suite succeeded")
	}
}
