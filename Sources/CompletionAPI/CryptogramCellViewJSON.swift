import StreamingJSON

// Every guess answers with the whole board, and its cells were the largest part of encoding the answer.
// The same members, in the same order, as the synthesized `encode(to:)`: a test compares the bytes.
extension CryptogramCellView: DirectJSONEncodable {
  public func writeJSON(to object: inout JSONObjectWriter) {
    object.write("index", index)
    object.write("isLetter", isLetter)
    object.write("cipher", cipher)
    object.write("shown", shown)
    object.write("prefilled", prefilled)
    object.write("hinted", hinted)
  }
}
