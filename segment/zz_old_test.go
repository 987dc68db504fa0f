package segment

// scanLiteral scans true, false or null at b[i].
func scanLiteralOld(b []byte, i int) (int, bool) {
	var lit string
	switch b[i] {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	case 'n':
		lit = "null"
	default:
		return i, false
	}
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// skipValue validates the JSON value starting at or after b[i] (leading
// whitespace allowed) and returns the index just after it. Nesting is
// handled iteratively, so hostile depth cannot overflow the stack.
func skipValueOld(b []byte, i int) (int, bool) {
	var small [64]byte
	stack := small[:0]
	var ok bool
	for {
		i = skipWS(b, i)
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			if len(stack) >= maxDepth {
				return i, false
			}
			i = skipWS(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' or ']'
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				if i, ok = scanKeyOld(b, i); !ok {
					return i, false
				}
			}
			continue
		case c == '"':
			if i, _, ok = scanString(b, i); !ok {
				return i, false
			}
		case c == '-' || ('0' <= c && c <= '9'):
			if i, ok = scanNumber(b, i); !ok {
				return i, false
			}
		default:
			if i, ok = scanLiteralOld(b, i); !ok {
				return i, false
			}
		}
		// After a complete value: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return i, false
			}
			top := stack[len(stack)-1]
			if b[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return i, false
			}
			i++
			if top == '{' {
				if i, ok = scanKeyOld(b, skipWS(b, i)); !ok {
					return i, false
				}
			}
			break
		}
	}
}

// scanKey scans an object key at b[i] (after whitespace) and the following
// colon, returning the index after the colon.
func scanKeyOld(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	i, _, ok := scanString(b, i)
	if !ok {
		return i, false
	}
	i = skipWS(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return i + 1, true
}

