// Package vectors embeds attest-harness's deterministic device-attestation test vectors (the JSON suites
// `attest-harness vectors --out vectors/` writes, with their schemas) and decodes them into typed structs that
// follow schema.json (format attest-harness-vectors/1).
//
//	for _, name := range vectors.Suites() {          // "android-key", "app-attest", "webauthn", ...
//		suite, err := vectors.Load(name)
//		...
//		for _, c := range suite.CasesFor("webauthn-l3") {
//			session := newVerifier(c.Context)           // a fresh verifier session per case
//			for i, step := range c.Steps {
//				verdict := session.verify(step.Kind, step.Inputs) // inputs are bytes
//				// compare verdict with c.Expected["webauthn-l3"][i]
//			}
//		}
//	}
//
// Load and Decode ignore members a newer harness adds, as the Swift decoder does; DecodeStrict rejects them and
// checks the vocabulary, so the module's own test catches drift between the generator and these types.
package vectors

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"
)

//go:embed *.json
var files embed.FS

// Format is the format of every suite this package decodes.
const Format = "attest-harness-vectors/1"

// SchemaFiles are the embedded JSON files that are not suites: the suite schema and the exec contract's schemas.
var SchemaFiles = []string{"schema.json", "exec-suite.schema.json", "exec-results.schema.json"}

// The harness's vocabulary: strings on the wire, distinct types here (as in Swift's AttestEvidence). Which inputs
// each step kind has is described per suite in Suite.StepKinds.
type (
	FamilyName  string
	StepKind    string
	InputKey    string
	RuleID      string
	ProfileName string
	CaseID      string
	Outcome     string
	Level       string
	BugClass    string
	Importance  string
)

const (
	OutcomeAccept Outcome = "accept"
	OutcomeReject Outcome = "reject"
	// OutcomeEither: the specification leaves the verdict to the relying party; accepting and refusing both conform.
	OutcomeEither Outcome = "either"

	LevelMust   Level = "MUST"
	LevelShould Level = "SHOULD"
	LevelPolicy Level = "POLICY"

	BugClassBinding   BugClass = "binding"
	BugClassTrust     BugClass = "trust"
	BugClassReplay    BugClass = "replay"
	BugClassPolicy    BugClass = "policy"
	BugClassParsing   BugClass = "parsing"
	BugClassSignature BugClass = "signature"

	ImportanceCritical Importance = "critical"
	ImportanceHigh     Importance = "high"
	ImportanceMedium   Importance = "medium"
	ImportanceLow      Importance = "low"
)

// Suite is one evidence family's vector file.
type Suite struct {
	Format        string              `json:"format"`
	Family        FamilyName          `json:"family"`
	Seed          uint64              `json:"seed"`
	StepKinds     map[StepKind]string `json:"stepKinds"`
	Rules         []Rule              `json:"rules"`
	Profiles      []Profile           `json:"profiles"`
	NumberOfCases int                 `json:"numberOfCases"`
	Cases         []Case              `json:"cases"`
}

// Rule is a rule the cases test: Statement is what a verifier must do, Source where it is written.
type Rule struct {
	ID        RuleID `json:"id"`
	Statement string `json:"statement"`
	Level     Level  `json:"level"`
	Quote     string `json:"quote,omitempty"`
	// OwnerVerifier is what the platform owner's own verifier does about the rule, where that matters.
	OwnerVerifier string   `json:"ownerVerifier,omitempty"`
	Source        string   `json:"source"`
	BugClass      BugClass `json:"bugClass"`
	References    []string `json:"references"`
	// Since is the edition of its source since which the rule holds ("WebAuthn Level 2"); empty for a source of one edition.
	Since string `json:"since,omitempty"`
}

// Profile is a verifier configuration the cases are judged under.
type Profile struct {
	Name        ProfileName       `json:"name"`
	Description string            `json:"description"`
	Families    []FamilyName      `json:"families"`
	Rules       []RuleID          `json:"rules"`
	Parameters  map[string]string `json:"parameters"`
	// LeftToRelyingParty lists the rules whose verdict the profile leaves to the relying party: a step breaking one
	// expects either verdict.
	LeftToRelyingParty []RuleID `json:"leftToRelyingParty,omitempty"`
}

// Case is one case: run its steps in order in one fresh verifier session configured from Context, and compare each
// verdict with Expected[profile][step index].
type Case struct {
	ID          CaseID     `json:"id"`
	Rule        RuleID     `json:"rule,omitempty"`
	Description string     `json:"description"`
	Importance  Importance `json:"importance"`
	Anchors     []string   `json:"anchors,omitempty"`
	// References are the public bugs, advisories and library faults the case would have caught.
	References []string `json:"references,omitempty"`
	// Control is a negative case's valid twin (same baseline, no mutation): count a refusal as a pass only when the
	// verifier accepted the control in the same run. Empty for valid cases.
	Control  CaseID                    `json:"control,omitempty"`
	Context  Context                   `json:"context"`
	Steps    []Step                    `json:"steps"`
	Expected map[ProfileName][]Outcome `json:"expected"`
}

// Context says how to configure the verifier session: the time to treat as now, PEM trust anchors, parameters.
type Context struct {
	Time         time.Time         `json:"time"`
	TrustAnchors []string          `json:"trustAnchors"`
	Parameters   map[string]string `json:"parameters"`
}

// Step is one request to the verifier. Inputs travel as standard base64 and decode to bytes.
type Step struct {
	Kind           StepKind            `json:"kind"`
	Inputs         map[InputKey][]byte `json:"inputs"`
	Breaks         RuleID              `json:"breaks,omitempty"`
	Time           *time.Time          `json:"time,omitempty"`
	ExpectedStatus string              `json:"expectedStatus,omitempty"`
	// Either: the specification leaves this step's verdict to the relying party; either verdict conforms.
	Either bool `json:"either,omitempty"`
	// Unreadable: nothing can be read past what this step breaks; it is refused under every profile, also one that
	// does not enforce Breaks.
	Unreadable bool `json:"unreadable,omitempty"`
	// Repeats: this step goes over an earlier step's ceremony again (a verifier sees its inputs as they are).
	Repeats *Repetition `json:"repeats,omitempty"`
}

// Repetition says which earlier step a step goes over again, and how: "replay" (that step's inputs exactly, its
// completing request sent again) or "answer" (a new response to that ceremony, no new options asked for).
type Repetition struct {
	As   string `json:"as"`
	Step int    `json:"step"`
}

// Input is the step's input named key, and whether it has one.
func (s Step) Input(key InputKey) ([]byte, bool) {
	value, ok := s.Inputs[key]
	return value, ok
}

// TimeOf is when step arrives: its own time, else the case's.
func (c Case) TimeOf(step Step) time.Time {
	if step.Time != nil {
		return *step.Time
	}
	return c.Context.Time
}

// CasesFor is the cases with expectations under profile.
func (s *Suite) CasesFor(profile ProfileName) []Case {
	var cases []Case
	for _, c := range s.Cases {
		if _, ok := c.Expected[profile]; ok {
			cases = append(cases, c)
		}
	}
	return cases
}

// Rule is the suite's rule id, or nil.
func (s *Suite) Rule(id RuleID) *Rule {
	for i := range s.Rules {
		if s.Rules[i].ID == id {
			return &s.Rules[i]
		}
	}
	return nil
}

// FS is the embedded files: every suite, schema.json, exec-suite.schema.json and exec-results.schema.json.
func FS() fs.FS { return files }

// ReadFile is one embedded file's bytes.
func ReadFile(name string) ([]byte, error) { return files.ReadFile(name) }

func isSuiteFile(name string) bool {
	if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".schema.json") {
		return false
	}
	for _, schema := range SchemaFiles {
		if name == schema {
			return false
		}
	}
	return true
}

// Suites is the name of every embedded suite, sorted: its file name without ".json".
func Suites() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil
	}
	var names []string
	for _, entry := range entries {
		if !entry.IsDir() && isSuiteFile(entry.Name()) {
			names = append(names, strings.TrimSuffix(entry.Name(), ".json"))
		}
	}
	sort.Strings(names)
	return names
}

// Load decodes the embedded suite name ("app-attest" or "app-attest.json").
func Load(name string) (*Suite, error) {
	data, err := suiteFile(name)
	if err != nil {
		return nil, err
	}
	suite, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("vectors: %s.json: %w", strings.TrimSuffix(name, ".json"), err)
	}
	return suite, nil
}

// LoadAll decodes every embedded suite, by name.
func LoadAll() (map[string]*Suite, error) {
	suites := map[string]*Suite{}
	for _, name := range Suites() {
		suite, err := Load(name)
		if err != nil {
			return nil, err
		}
		suites[name] = suite
	}
	return suites, nil
}

func suiteFile(name string) ([]byte, error) {
	stem := strings.TrimSuffix(name, ".json")
	for _, known := range Suites() {
		if known == stem {
			return files.ReadFile(stem + ".json")
		}
	}
	return nil, fmt.Errorf("vectors: no suite %q; the suites are %s", name, strings.Join(Suites(), ", "))
}

// Decode decodes a suite leniently: members a newer harness adds are ignored. The format must be Format.
func Decode(data []byte) (*Suite, error) {
	var suite Suite
	if err := json.Unmarshal(data, &suite); err != nil {
		return nil, err
	}
	if suite.Format != Format {
		return nil, fmt.Errorf("format %q is not %q", suite.Format, Format)
	}
	return &suite, nil
}

// DecodeStrict decodes a suite as schema.json validates it: unknown members are errors, and so is anything
// Validate rejects.
func DecodeStrict(data []byte) (*Suite, error) {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	var suite Suite
	if err := decoder.Decode(&suite); err != nil {
		return nil, err
	}
	if decoder.More() {
		return nil, fmt.Errorf("data after the suite document")
	}
	if err := suite.Validate(); err != nil {
		return nil, err
	}
	return &suite, nil
}

// Validate checks what the struct types cannot: the format, the vocabulary, the number of cases, at least one step
// per case and one expected outcome per step.
func (s *Suite) Validate() error {
	if s.Format != Format {
		return fmt.Errorf("format %q is not %q", s.Format, Format)
	}
	if s.NumberOfCases != len(s.Cases) {
		return fmt.Errorf("numberOfCases is %d, but the suite has %d cases", s.NumberOfCases, len(s.Cases))
	}
	for i, rule := range s.Rules {
		if !rule.Level.Valid() {
			return fmt.Errorf("/rules/%d/level: %q", i, rule.Level)
		}
		if !rule.BugClass.Valid() {
			return fmt.Errorf("/rules/%d/bugClass: %q", i, rule.BugClass)
		}
	}
	for i, c := range s.Cases {
		if c.ID == "" {
			return fmt.Errorf("/cases/%d: no id", i)
		}
		if !c.Importance.Valid() {
			return fmt.Errorf("/cases/%d/importance: %q", i, c.Importance)
		}
		if c.Context.Time.IsZero() {
			return fmt.Errorf("/cases/%d/context: no time", i)
		}
		if len(c.Steps) == 0 {
			return fmt.Errorf("/cases/%d/steps: a case has at least one step", i)
		}
		for j, step := range c.Steps {
			if step.Kind == "" || step.Inputs == nil {
				return fmt.Errorf("/cases/%d/steps/%d: no kind or no inputs", i, j)
			}
		}
		for profile, outcomes := range c.Expected {
			if len(outcomes) != len(c.Steps) {
				return fmt.Errorf("/cases/%d/expected/%s: %d outcomes for %d steps", i, profile, len(outcomes), len(c.Steps))
			}
			for _, outcome := range outcomes {
				if !outcome.Valid() {
					return fmt.Errorf("/cases/%d/expected/%s: %q", i, profile, outcome)
				}
			}
		}
	}
	return nil
}

// Valid says whether o is one of the outcomes this version knows.
func (o Outcome) Valid() bool { return o == OutcomeAccept || o == OutcomeReject || o == OutcomeEither }

// Valid says whether l is one of the levels this version knows.
func (l Level) Valid() bool { return l == LevelMust || l == LevelShould || l == LevelPolicy }

// Valid says whether b is one of the bug classes this version knows.
func (b BugClass) Valid() bool {
	switch b {
	case BugClassBinding, BugClassTrust, BugClassReplay, BugClassPolicy, BugClassParsing, BugClassSignature:
		return true
	}
	return false
}

// Valid says whether i is one of the importances this version knows.
func (i Importance) Valid() bool {
	switch i {
	case ImportanceCritical, ImportanceHigh, ImportanceMedium, ImportanceLow:
		return true
	}
	return false
}
