import Foundation
import Testing

@testable import StreamingJSON

@Suite("UUID text")
struct UUIDTextTests {
  @Test("Written as uuidString writes it, and read back, for many random ids and the extremes")
  func sameAsFoundation() {
    let extremes = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!]
    for id in extremes + (0..<5_000).map({ _ in UUID() }) {
      #expect(id.uuidText == id.uuidString)
      #expect(UUID(uuidText: id.uuidString) == id)
      #expect(UUID(uuidText: id.uuidString.lowercased()) == id)
    }
  }

  @Test("Text that is not an id is refused (where sscanf lets UUID(uuidString:) read \"0x\" as a digit pair, too)")
  func refusesWhatFoundationRefuses() {
    let good = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    var texts = [
      "", String(good.dropLast()), good + "0", "{\(good)}", good.replacingOccurrences(of: "-", with: ""),
      "E621E1F8C-36C-495A-93FC-0C247A3E6E5F", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5 ",
      "E621E1F8-C36C-495A-93FC-0C247A3E6É5", " E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    ]
    // Every character in turn replaced by one that is not a hex digit, and every hyphen by a digit.
    for offset in 0..<36 {
      var bytes = Array(good.utf8)
      bytes[offset] = bytes[offset] == UInt8(ascii: "-") ? UInt8(ascii: "0") : UInt8(ascii: "x")
      texts.append(String(decoding: bytes, as: UTF8.self))
    }
    for text in texts {
      #expect(UUID(uuidText: text) == nil, "\(text)")
    }
    #expect(UUID(uuidText: good.lowercased()) == UUID(uuidString: good))
  }
}
