// Package jsonscan is the one hand-written JSON scanner of ahptui, shared by
// segment (frame envelopes, the final check of a reassembled message) and
// ahpclient (the read loop's fast path for action frames).
//
// It has four parts:
//   - validating scans (ScanString, ScanNumber, SkipValue, Valid): the JSON
//     grammar of RFC 8259 plus UTF-8 inside strings, with SWAR fast paths;
//     they accept exactly what encoding/json.Valid && utf8.Valid accept
//     (FuzzJSONValid, TestScanStringMatchesEncodingJSON);
//   - Unescape, which decodes a validated string body exactly as
//     encoding/json does (lone surrogates become U+FFFD), and StringIs and
//     BodyIs, which compare a string with a wanted value through it;
//   - structural skips (StringEnd, SkipStructural), which only find where a
//     value ends, for routing decisions and for callers that validate later;
//   - the JSON-RPC envelope key rules (EnvelopeKey, CheckEnvelopeKeys): a
//     top-level member name that appears twice, or that encoding/json would
//     match to an envelope member only by case folding ("Method", "jſonrpc"), is
//     refused on every path, so the segment layer, the client's fast path
//     and encoding/json can never read one message differently.
//
// It does no I/O and allocates only in Unescape.
package jsonscan
