// The stub's `#Preview` (see ../README.md): Xcode's previews macro is not on Linux. SwiftUI type-checks a
// preview's body as the macro's argument before expanding it, so expanding to nothing keeps that check and
// adds nothing to the module.
import SwiftSyntax
import SwiftSyntaxMacros

public struct PreviewMacro: DeclarationMacro {
  public static func expansion(
    of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
