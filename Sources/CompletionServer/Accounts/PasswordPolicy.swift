import Foundation

/// What a new password must be, wherever one is set (saving an account, changing a password, recovering one
/// with a code). The rules live here only: the pages and clients show the server's refusal.
enum PasswordPolicy {
  /// bcrypt reads only a password's first 72 bytes: a longer one would let in anything that starts the same.
  static let maxBytes = 72
  /// The fewest characters a password may have.
  static let minCharacters = 8

  /// Refuses a password that is too short, only spaces, longer than bcrypt reads, one of the most common
  /// passwords, or equal to or containing the username (both compared without regard to case).
  static func check(_ password: String, username: String?) throws {
    guard password.count >= minCharacters else { throw AppError.weakPassword }
    guard !password.allSatisfy(\.isWhitespace) else { throw AppError.blankPassword }
    guard password.utf8.count <= maxBytes else { throw AppError.passwordTooLong }
    let lowered = password.lowercased()
    if let username = username?.lowercased(), !username.isEmpty, lowered.contains(username) {
      throw AppError.passwordContainsUsername
    }
    if CommonPasswords.contains(lowered) { throw AppError.passwordTooCommon }
  }
}

/// The bundled list of the most common passwords (`Resources/common-passwords.txt`), read once on first use.
enum CommonPasswords {
  /// Every password of the list, lower-cased. Empty only if the resource is missing, which the tests rule out.
  static let all: Set<String> = {
    guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
      let text = try? String(contentsOf: url, encoding: .utf8)
    else { return [] }
    var passwords = Set<String>(minimumCapacity: 30_000)
    for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
      passwords.insert(line.lowercased())
    }
    return passwords
  }()

  /// Whether `lowered` (already lower-cased) is on the list.
  static func contains(_ lowered: String) -> Bool { all.contains(lowered) }
}
