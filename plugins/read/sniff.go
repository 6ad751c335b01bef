package read

import "bytes"

// magic recognises common binary formats by their first bytes.
var magic = []struct {
	prefix []byte
	offset int
	kind   string
	mime   string
}{
	{[]byte("\x89PNG"), 0, "PNG image", "image/png"},
	{[]byte("\xff\xd8\xff"), 0, "JPEG image", "image/jpeg"},
	{[]byte("GIF87a"), 0, "GIF image", "image/gif"},
	{[]byte("GIF89a"), 0, "GIF image", "image/gif"},
	{[]byte("WEBP"), 8, "WebP image", "image/webp"},
	{[]byte("BM"), 0, "BMP image", "image/bmp"},
	{[]byte("\x00\x00\x01\x00"), 0, "ICO image", "image/x-icon"},
	{[]byte("%PDF-"), 0, "PDF document", "application/pdf"},
	{[]byte("PK\x03\x04"), 0, "ZIP archive (or a format built on it: jar, docx, xlsx …)", "application/zip"},
	{[]byte("\x1f\x8b"), 0, "gzip archive", "application/gzip"},
	{[]byte("BZh"), 0, "bzip2 archive", "application/x-bzip2"},
	{[]byte("\xfd7zXZ\x00"), 0, "xz archive", "application/x-xz"},
	{[]byte("(\xb5/\xfd"), 0, "zstd archive", "application/zstd"},
	{[]byte("7z\xbc\xaf\x27\x1c"), 0, "7-Zip archive", "application/x-7z-compressed"},
	{[]byte("ustar"), 257, "tar archive", "application/x-tar"},
	{[]byte("\x7fELF"), 0, "ELF executable or library", "application/x-elf"},
	{[]byte("MZ"), 0, "Windows executable", "application/vnd.microsoft.portable-executable"},
	{[]byte("\xcf\xfa\xed\xfe"), 0, "Mach-O executable", "application/x-mach-binary"},
	{[]byte("\xca\xfe\xba\xbe"), 0, "Mach-O universal binary or Java class", "application/octet-stream"},
	{[]byte("\x00asm"), 0, "WebAssembly module", "application/wasm"},
	{[]byte("SQLite format 3\x00"), 0, "SQLite database", "application/vnd.sqlite3"},
	{[]byte("OggS"), 0, "Ogg media", "audio/ogg"},
	{[]byte("ID3"), 0, "MP3 audio", "audio/mpeg"},
	{[]byte("fLaC"), 0, "FLAC audio", "audio/flac"},
	{[]byte("ftyp"), 4, "MP4/QuickTime media", "video/mp4"},
	{[]byte("\x1aE\xdf\xa3"), 0, "Matroska/WebM media", "video/webm"},
	{[]byte("wOFF"), 0, "WOFF font", "font/woff"},
	{[]byte("wOF2"), 0, "WOFF2 font", "font/woff2"},
	{[]byte("\x00\x01\x00\x00"), 0, "TrueType font", "font/ttf"},
	{[]byte("OTTO"), 0, "OpenType font", "font/otf"},
	// The host converts UTF-16 text up to 16 MiB to UTF-8; a larger file
	// comes here, binary to read_file, though search_code reads it.
	{[]byte("\xff\xfe"), 0, "UTF-16 text (little-endian)", utf16LE},
	{[]byte("\xfe\xff"), 0, "UTF-16 text (big-endian)", utf16BE},
}

// The MIME types of UTF-16 text, which render describes apart.
const (
	utf16LE = "text/plain; charset=utf-16le"
	utf16BE = "text/plain; charset=utf-16be"
)

// sniffLen is how many leading bytes sniff needs.
const sniffLen = 264

// sniff guesses a binary file's kind and MIME type from its first bytes.
func sniff(head []byte) (kind, mime string) {
	for _, m := range magic {
		if len(head) >= m.offset+len(m.prefix) && bytes.Equal(head[m.offset:m.offset+len(m.prefix)], m.prefix) {
			if m.kind == "WebP image" && !bytes.HasPrefix(head, []byte("RIFF")) {
				continue
			}
			return m.kind, m.mime
		}
	}
	return "binary data of an unknown format", "application/octet-stream"
}
