package main

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf16"
)

// mo builds a little-endian .mo file of the given msgid → msgstr pairs.
func mo(pairs [][2]string) []byte {
	n := len(pairs)
	orig, trans := 28, 28+8*n
	off := trans + 8*n
	var strs bytes.Buffer
	tables := make([]uint32, 0, 4*n)
	var origT, transT []uint32
	for _, p := range pairs {
		origT = append(origT, uint32(len(p[0])), uint32(off+strs.Len()))
		strs.WriteString(p[0] + "\x00")
	}
	for _, p := range pairs {
		transT = append(transT, uint32(len(p[1])), uint32(off+strs.Len()))
		strs.WriteString(p[1] + "\x00")
	}
	tables = append(append(tables, origT...), transT...)
	var b bytes.Buffer
	for _, v := range []uint32{0x950412de, 0, uint32(n), uint32(orig), uint32(trans), 0, 0} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	for _, v := range tables {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.Write(strs.Bytes())
	return b.Bytes()
}

// TestMoCatalog: strings with and without a context, and broken files.
func TestMoCatalog(t *testing.T) {
	data := mo([][2]string{{"", "Content-Type: text/plain; charset=UTF-8\n"}, {"Stock label\x04_Yes", "はい(_Y)"}, {"No", "Nein"}})
	cat, err := moCatalog(data)
	if err != nil {
		t.Fatal(err)
	}
	if cat["Stock label\x04_Yes"] != "はい(_Y)" || cat["No"] != "Nein" {
		t.Errorf("moCatalog = %q", cat)
	}
	for _, bad := range [][]byte{nil, []byte("not a mo file at all"), data[:40]} {
		if _, err := moCatalog(bad); err == nil {
			t.Errorf("moCatalog(%q) read a broken file", bad)
		}
	}
}

// FuzzMoCatalog: no input makes the reader panic.
func FuzzMoCatalog(f *testing.F) {
	f.Add(mo([][2]string{{"Yes", "Ja"}}))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = moCatalog(data) })
}

// TestButtonWord: mnemonics as GTK's catalogs write them (Debian
// libgtk-3-common 3.24.38).
func TestButtonWord(t *testing.T) {
	for in, want := range map[string]string{
		"_Yes": "Yes", "はい(_Y)": "はい", "ना (_N)": "ना", "&Nein": "Nein", "_Так": "Так", "(&Y)അതെ": "അതെ",
	} {
		if got := buttonWord(in); got != want {
			t.Errorf("buttonWord(%q) = %q, want %q", in, got, want)
		}
	}
	if baseLang("sr@latin") != "sr" || baseLang("pt_BR") != "pt" || baseLang("az_IR") != "az" {
		t.Error("baseLang")
	}
}

// qm builds a .qm file of the given (context, source, translation) messages.
func qm(msgs [][3]string) []byte {
	var m bytes.Buffer
	field := func(tag byte, v []byte) {
		m.WriteByte(tag)
		binary.Write(&m, binary.BigEndian, uint32(len(v)))
		m.Write(v)
	}
	for _, x := range msgs {
		var u []byte
		for _, c := range utf16.Encode([]rune(x[2])) {
			u = binary.BigEndian.AppendUint16(u, c)
		}
		field(3, u)
		m.WriteByte(5)
		m.Write([]byte{1, 2, 3, 4})
		field(6, []byte(x[1]))
		field(7, []byte(x[0]))
		field(8, nil)
		m.WriteByte(1)
	}
	var b bytes.Buffer
	b.Write(qmMagic)
	b.WriteByte(0x42)
	binary.Write(&b, binary.BigEndian, uint32(8))
	b.Write(make([]byte, 8))
	b.WriteByte(0x69)
	binary.Write(&b, binary.BigEndian, uint32(m.Len()))
	b.Write(m.Bytes())
	return b.Bytes()
}

// TestQmCatalog: messages as kwidgetsaddons5_qt.qm and qtbase_*.qm hold
// them, and broken files.
func TestQmCatalog(t *testing.T) {
	data := qm([][3]string{{"KStandardGuiItem", "&Yes", "はい(&Y)"}, {"QPlatformTheme", "&No", "&Нет"}})
	cat, err := qmCatalog(data)
	if err != nil {
		t.Fatal(err)
	}
	if cat["KStandardGuiItem\x04&Yes"] != "はい(&Y)" || cat["QPlatformTheme\x04&No"] != "&Нет" || len(cat) != 2 {
		t.Errorf("qmCatalog = %q", cat)
	}
	for _, bad := range [][]byte{nil, []byte("not a qm file at all"), data[:20], data[:len(data)-3]} {
		if _, err := qmCatalog(bad); err == nil {
			t.Errorf("qmCatalog(%q) read a broken file", bad)
		}
	}
}

// FuzzQmCatalog: no input makes the reader panic.
func FuzzQmCatalog(f *testing.F) {
	f.Add(qm([][3]string{{"KStandardGuiItem", "&Yes", "&Ja"}}))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = qmCatalog(data) })
}
