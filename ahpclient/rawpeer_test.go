package ahpclient

import (
	"bufio"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// rawPeer is a WebSocket host written against the RFC 6455 framing by hand,
// over a real 127.0.0.1 TCP listener, so a test can send what no WebSocket
// library would: a first fragment without its continuation, followed by a
// TCP half-close.
type rawPeer struct {
	ln    net.Listener
	conns chan *rawConn
}

// rawConn is one accepted, upgraded connection.
type rawConn struct {
	c  *net.TCPConn
	br *bufio.Reader
}

func newRawPeer(t *testing.T) *rawPeer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &rawPeer{ln: ln, conns: make(chan *rawConn, 8)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(p.conns)
				return
			}
			rc, err := upgradeRaw(c.(*net.TCPConn))
			if err != nil {
				_ = c.Close()
				continue
			}
			p.conns <- rc
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return p
}

func (p *rawPeer) url() string { return "ws://" + p.ln.Addr().String() }

// upgradeRaw answers the HTTP upgrade of c.
func upgradeRaw(c *net.TCPConn) (*rawConn, error) {
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return nil, err
	}
	h := sha1.Sum([]byte(req.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Accept: " + base64.StdEncoding.EncodeToString(h[:]) + "\r\n\r\n"
	if _, err := io.WriteString(c, resp); err != nil {
		return nil, err
	}
	return &rawConn{c: c, br: br}, nil
}

// readMessage reads one unfragmented, masked text frame from the client,
// answering pings on the way.
func (r *rawConn) readMessage() ([]byte, error) {
	for {
		var hdr [2]byte
		if _, err := io.ReadFull(r.br, hdr[:]); err != nil {
			return nil, err
		}
		op := hdr[0] & 0x0f
		n := uint64(hdr[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(r.br, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(r.br, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		if n > 1<<20 {
			return nil, fmt.Errorf("frame of %d bytes", n)
		}
		var key [4]byte
		if hdr[1]&0x80 != 0 {
			if _, err := io.ReadFull(r.br, key[:]); err != nil {
				return nil, err
			}
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r.br, b); err != nil {
			return nil, err
		}
		for i := range b {
			b[i] ^= key[i%4]
		}
		switch op {
		case 0x1:
			if hdr[0]&0x80 == 0 {
				return nil, errors.New("fragmented client message")
			}
			return b, nil
		case 0x8:
			return nil, io.EOF
		case 0x9:
			if err := r.writeFrame(true, 0xA, b); err != nil {
				return nil, err
			}
		}
	}
}

// readRequest reads client messages until a request arrives.
func (r *rawConn) readRequest() (ahpwire.Message, error) {
	for {
		b, err := r.readMessage()
		if err != nil {
			return ahpwire.Message{}, err
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) == nil && m.IsRequest() {
			return m, nil
		}
	}
}

// writeFrame writes one unmasked server frame (fin: the last fragment).
func (r *rawConn) writeFrame(fin bool, op byte, payload []byte) error {
	b0 := op
	if fin {
		b0 |= 0x80
	}
	hdr := []byte{b0}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, byte(n))
	case n <= 0xffff:
		hdr = append(hdr, 126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	_, err := r.c.Write(append(hdr, payload...))
	return err
}

// answer writes the default answer to m as one frame.
func (r *rawConn) answer(m ahpwire.Message) error {
	b, err := json.Marshal(defaultAnswer(m))
	if err != nil {
		return err
	}
	return r.writeFrame(true, 0x1, b)
}

// serveDefault answers every request with the default answer until the
// connection ends.
func (r *rawConn) serveDefault() {
	for {
		m, err := r.readRequest()
		if err != nil {
			return
		}
		if r.answer(m) != nil {
			return
		}
	}
}
