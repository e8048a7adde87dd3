/// What people's text may not carry, whichever system keeps it.
extension Unicode.Scalar {
  /// An explicit bidirectional formatting character — an embedding, override or isolate (U+202A–U+202E,
  /// U+2066–U+2069). It is invisible and makes text show in another order than it is stored ("‮txt.exe"), so
  /// names, titles, notes, stories and comments never keep one. The marks U+200E and U+200F, which only hint a
  /// direction, stay.
  public var isBidiFormatting: Bool {
    (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
  }
}
