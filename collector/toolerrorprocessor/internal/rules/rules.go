// Package rules loads the classifier's tables from tool-errors.json, the file
// `npm run rules:generate` writes from the TypeScript package's sources (do not edit it here).
package rules

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
)

//go:embed tool-errors.json
var embedded []byte

// Pattern is a regular expression as the rules file states it: RE2 syntax, with a flag for case.
type Pattern struct {
	Pattern    string `json:"pattern"`
	IgnoreCase bool   `json:"ignoreCase"`
}

// Compile compiles the pattern, with (?i) when it ignores case.
func (p Pattern) Compile() (*regexp.Regexp, error) {
	if p.IgnoreCase {
		return regexp.Compile("(?i)" + p.Pattern)
	}
	return regexp.Compile(p.Pattern)
}

// Kind is one row of the taxonomy.
type Kind struct {
	Kind        string `json:"kind"`
	Executed    bool   `json:"executed"`
	Retryable   bool   `json:"retryable"`
	Description string `json:"description"`
}

// StatusRun gives the kind of the HTTP statuses From..To; KindWithQuotaEvidence is the kind when
// quota evidence, and no rate-limit evidence, came with the status.
type StatusRun struct {
	From                  int    `json:"from"`
	To                    int    `json:"to"`
	Kind                  string `json:"kind"`
	KindWithQuotaEvidence string `json:"kindWithQuotaEvidence"`
}

// KindPattern is a pattern that means a kind.
type KindPattern struct {
	Kind string `json:"kind"`
	Pattern
}

// SpanMatch is one way to recognise a tool span: every part given must hold.
type SpanMatch struct {
	NameEquals string            `json:"nameEquals,omitempty" mapstructure:"name_equals"`
	NamePrefix string            `json:"namePrefix,omitempty" mapstructure:"name_prefix"`
	NameSuffix string            `json:"nameSuffix,omitempty" mapstructure:"name_suffix"`
	Attributes map[string]string `json:"attributes,omitempty" mapstructure:"attributes"`
	Present    []string          `json:"present,omitempty" mapstructure:"present"`
}

// SpanFamily is one framework's (or convention's) tool spans.
type SpanFamily struct {
	Framework   string      `json:"framework"`
	Recognise   []SpanMatch `json:"recognise"`
	Result      []string    `json:"result"`
	MCPToolCall *struct {
		Flag string `json:"flag"`
		Text string `json:"text"`
	} `json:"mcpToolCall"`
	OwnErrorType bool `json:"ownErrorType"`
}

// Rules is the whole file.
type Rules struct {
	Attributes struct {
		ErrorType              string   `json:"errorType"`
		Kind                   string   `json:"kind"`
		Retryable              string   `json:"retryable"`
		Executed               string   `json:"executed"`
		DetailType             string   `json:"detailType"`
		FrameworkType          string   `json:"frameworkType"`
		CallOutcome            string   `json:"callOutcome"`
		ToolCallResult         string   `json:"toolCallResult"`
		ExceptionType          string   `json:"exceptionType"`
		ExceptionMessage       string   `json:"exceptionMessage"`
		ExceptionStacktrace    string   `json:"exceptionStacktrace"`
		HTTPResponseStatusCode []string `json:"httpResponseStatusCode"`
		HTTPRequestMethod      []string `json:"httpRequestMethod"`
		RetryAfter             []string `json:"retryAfter"`
		RetryAfterMs           []string `json:"retryAfterMs"`
		ErrorTypeOther         string   `json:"errorTypeOther"`
		ErrorTypeToolError     string   `json:"errorTypeToolError"`
	} `json:"attributes"`
	Kinds         []Kind `json:"kinds"`
	EvidenceOrder []struct {
		Evidence string `json:"evidence"`
	} `json:"evidenceOrder"`
	HTTP struct {
		Statuses         []StatusRun `json:"statuses"`
		QuotaCodes       Pattern     `json:"quotaCodes"`
		GoogleRetryDelay Pattern     `json:"googleRetryDelay"`
	} `json:"http"`
	Codes struct {
		Timeout          []string `json:"timeout"`
		Network          []string `json:"network"`
		NetworkPrefixes  []string `json:"networkPrefixes"`
		Cancel           []string `json:"cancel"`
		TimeoutOrNetwork struct {
			Code               string  `json:"code"`
			TimeoutWhenMessage Pattern `json:"timeoutWhenMessage"`
		} `json:"timeoutOrNetwork"`
		JSONRPC []struct {
			Code int    `json:"code"`
			Kind string `json:"kind"`
		} `json:"jsonRpc"`
		JSONRPCUnknownTool struct {
			Code    int     `json:"code"`
			Message Pattern `json:"message"`
		} `json:"jsonRpcUnknownTool"`
		CanonicalStatuses map[string]string `json:"canonicalStatuses"`
		ThrottlingNames   Pattern           `json:"throttlingNames"`
	} `json:"codes"`
	Classes struct {
		Names         map[string]string `json:"names"`
		NameParts     []KindPattern     `json:"nameParts"`
		StatusNames   map[string]int    `json:"statusNames"`
		ErrorSuffix   Pattern           `json:"errorSuffix"`
		Codes         map[string]string `json:"codes"`
		StackCause    Pattern           `json:"stackCauseLine"`
		MaxStackRead  int               `json:"maxStackRead"`
		MaxStackCause int               `json:"maxStackCauses"`
		MaxCauseLinks int               `json:"maxCauseLinks"`
		Uninformative []string          `json:"uninformative"`
		AWSAuthNames  []string          `json:"awsAuthNames"`
	} `json:"classes"`
	Messages struct {
		MaxScannedLength int               `json:"maxScannedLength"`
		URLs             Pattern           `json:"urls"`
		MCPCode          Pattern           `json:"mcpCode"`
		HTTPStatuses     []Pattern         `json:"httpStatuses"`
		ReasonPhrases    map[string]int    `json:"reasonPhrases"`
		Settings         Pattern           `json:"settings"`
		RateLimitText    Pattern           `json:"rateLimitText"`
		QuotaText        Pattern           `json:"quotaText"`
		RetryDelayText   Pattern           `json:"retryDelayText"`
		NodeCode         Pattern           `json:"nodeCode"`
		SystemErrorText  Pattern           `json:"systemErrorText"`
		SystemErrorTexts map[string]string `json:"systemErrorTexts"`
		Families         []KindPattern     `json:"families"`
	} `json:"messages"`
	ErrorType struct {
		MaxLength     int      `json:"maxLength"`
		MaxDistinct   int      `json:"maxDistinct"`
		IdleMs        int64    `json:"idleMs"`
		AlwaysAllowed []string `json:"alwaysAllowed"`
		Sanitize      struct {
			Pattern     string `json:"pattern"`
			Replacement string `json:"replacement"`
			Empty       string `json:"empty"`
		} `json:"sanitize"`
	} `json:"errorType"`
	Results struct {
		MaxLength int     `json:"maxLength"`
		Hint      Pattern `json:"hint"`
	} `json:"results"`
	Redaction struct {
		Redacted               string    `json:"redacted"`
		MaxStatusMessageLength int       `json:"maxStatusMessageLength"`
		MaxExceptionTextLength int       `json:"maxExceptionTextLength"`
		StackFrameLineStart    string    `json:"stackFrameLineStart"`
		StackFrameMarker       Pattern   `json:"stackFrameMarker"`
		StackFrameLine         Pattern   `json:"stackFrameLine"`
		Patterns               []Pattern `json:"patterns"`
		MayHoldSecretExactCase Pattern   `json:"mayHoldSecretExactCase"`
		MayHoldSecretAnyCase   Pattern   `json:"mayHoldSecretAnyCase"`
		MinOpaqueRun           int       `json:"minOpaqueRun"`
	} `json:"redaction"`
	Python struct {
		Classes        map[string]string `json:"classes"`
		StatusMessages []string          `json:"statusMessages"`
		RetryDelay     string            `json:"retryDelay"`
		Pauses         []string          `json:"pauses"`
	} `json:"python"`
	SpanFamilies []SpanFamily `json:"spanFamilies"`
}

// Load parses the embedded rules file.
func Load() (*Rules, error) {
	var r Rules
	if err := json.Unmarshal(embedded, &r); err != nil {
		return nil, fmt.Errorf("tool-errors.json: %w", err)
	}
	if len(r.Kinds) == 0 || len(r.SpanFamilies) == 0 {
		return nil, fmt.Errorf("tool-errors.json: no kinds or span families")
	}
	return &r, nil
}
