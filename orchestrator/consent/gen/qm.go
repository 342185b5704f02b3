package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf16"
)

// Qt's translation catalogs (.qm, written by lrelease) hold the Yes and No
// buttons of Qt (qtbase_<locale>.qm, context QPlatformTheme) and of KDE
// Frameworks (kwidgetsaddons5_qt.qm, context KStandardGuiItem). The format
// is Qt's (qttools src/linguist/shared/qm.cpp): a 16-byte magic number,
// then sections of a tag byte, a big-endian 32-bit length and the data.
// The messages section (tag 0x69) is a run of fields, each a tag byte and,
// for most tags, a 32-bit length and that many bytes: translation (3,
// UTF-16BE; length 0xffffffff for none), source text (6), context (7) and
// comment (8), both UTF-8; tag 1 ends a message; tag 5 is followed by a
// 4-byte hash and tag 9 by nothing.

var qmMagic = []byte{0x3c, 0xb8, 0x64, 0x18, 0xca, 0xef, 0x9c, 0x95, 0xcd, 0x21, 0x1c, 0xbf, 0x60, 0xa1, 0xbd, 0xdd}

// qmButtonContexts are the contexts whose "Yes"/"No" source texts are dialog
// buttons. Qt's QShortcut context names the Yes and No keys of a keyboard
// instead, and is not read.
var qmButtonContexts = map[string]bool{
	"KStandardGuiItem": true, "QPlatformTheme": true, "QAndroidPlatformTheme": true,
	"QDialogButtonBox": true, "QMessageBox": true,
}

// qmCatalog reads a .qm file into "context\x04source" → translation, the
// form moCatalog gives a message with a context. A message without a source
// text (a stripped catalog) is left out.
func qmCatalog(data []byte) (map[string]string, error) {
	if !bytes.HasPrefix(data, qmMagic) {
		return nil, errors.New("no .qm magic number")
	}
	var msgs []byte
	for p := len(qmMagic); p < len(data); {
		if p+5 > len(data) {
			return nil, fmt.Errorf("section at %d: truncated header", p)
		}
		tag, n := data[p], int(binary.BigEndian.Uint32(data[p+1:]))
		p += 5
		if n < 0 || n > len(data)-p {
			return nil, fmt.Errorf("section %#x at %d: length %d out of range", tag, p, n)
		}
		if tag == 0x69 {
			msgs = data[p : p+n]
		}
		p += n
	}
	cat := map[string]string{}
	var src, ctx, tr string
	hasSrc, hasTr := false, false
	for p := 0; p < len(msgs); {
		tag := msgs[p]
		p++
		switch tag {
		case 1:
			if hasSrc && hasTr {
				cat[ctx+"\x04"+src] = tr
			}
			src, ctx, tr, hasSrc, hasTr = "", "", "", false, false
			continue
		case 5:
			p += 4
			continue
		case 9:
			continue
		case 2, 3, 4, 6, 7, 8:
		default:
			return nil, fmt.Errorf("message field tag %#x at %d", tag, p-1)
		}
		if p+4 > len(msgs) {
			return nil, fmt.Errorf("field %#x at %d: truncated length", tag, p-1)
		}
		n := binary.BigEndian.Uint32(msgs[p:])
		p += 4
		if n == 0xffffffff {
			continue
		}
		if int64(n) > int64(len(msgs)-p) {
			return nil, fmt.Errorf("field %#x at %d: length %d out of range", tag, p-5, n)
		}
		v := msgs[p : p+int(n)]
		p += int(n)
		switch tag {
		case 3:
			if hasTr || len(v)%2 != 0 {
				continue // a plural's further forms, or a broken string
			}
			u := make([]uint16, len(v)/2)
			for i := range u {
				u[i] = binary.BigEndian.Uint16(v[2*i:])
			}
			tr, hasTr = string(utf16.Decode(u)), true
		case 6:
			src, hasSrc = string(v), true
		case 7:
			ctx = string(v)
		}
	}
	return cat, nil
}
