import CompletionCore
import Cryptogram
import Imaging
import Vapor

/// The cryptogram page, `GET /cryptogram`. A shared daily link (`/cryptogram?daily=2026-11-24`) gets link-preview
/// tags (Open Graph) naming that day's puzzle and a picture of it, so a chat shows what the link is. Their
/// absolute links are built from the configured public address (`COMPLETIONKIT_PUBLIC_URL`) or the address the
/// server listens on — never from the request's Host header, which whoever sends the request chooses.
struct CryptogramPage: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(.getCryptogramPage, use: page)
    routes.on(.getCryptogramDailyCard, use: dailyCard)
  }

  /// `GET /cryptogram`: the page; with `?daily=` a day that is out, the page with that day's preview tags.
  @Sendable func page(req: Request) async throws -> Response {
    let file = req.application.serverOptions.publicDirectory.appendingPathComponent("cryptogram.html").path
    guard let day = Self.previewDay(req.query[String.self, at: "daily"], now: req.application.services.clock.now()) else {
      return try await req.fileio.asyncStreamFile(at: file)
    }
    let buffer = try await req.fileio.collectFile(at: file).get()
    let html = String(buffer: buffer)
    let tags = Self.previewTags(for: day, origin: req.application.publicOrigin)
    var headers = HTTPHeaders()
    headers.contentType = .html
    headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
    return Response(status: .ok, headers: headers, body: .init(string: html.replacingOccurrences(of: "</head>", with: tags + "</head>")))
  }

  /// `GET /api/cryptogram/dailies/{date}/card.png`: the daily's preview picture (its day, no letter of the quote).
  @Sendable func dailyCard(req: Request) async throws -> Response {
    guard let text = req.parameters.get("date"), let day = CalendarDay(text) else {
      throw CryptogramError.invalidDate(req.parameters.get("date") ?? "")
    }
    guard day.year >= 2000 else { throw CryptogramError.notInArchive(text) }
    if day > CalendarDay(req.application.services.clock.now(), in: CryptogramController.earliestZone) { throw CryptogramError.dailyNotYet(day) }
    let preview = DailyPreview(day: day)
    let fonts = try CardFonts.shared()
    let content = ResultCardContent(
      eyebrow: preview.eyebrow, title: preview.heading, subtitle: preview.subheading, figures: [], invitation: preview.invitation)
    let png = try await req.application.threadPool.runIfActive { ResultCard.render(content, fonts: fonts) }
    var headers = HTTPHeaders()
    headers.contentType = .png
    // The same for everyone and never changes: chat services may keep it.
    headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=86400")
    headers.replaceOrAdd(name: .contentDisposition, value: "inline; filename=\"cryptogram-\(day).png\"")
    return Response(status: .ok, headers: headers, body: .init(data: Data(png)))
  }

  /// The day a `?daily=` link names, when it is a day whose puzzle is out.
  static func previewDay(_ text: String?, now: Date) -> CalendarDay? {
    guard let text, let day = CalendarDay(text), day.year >= 2000, day <= CalendarDay(now, in: CryptogramController.earliestZone) else {
      return nil
    }
    return day
  }

  /// The Open Graph and Twitter tags of `day`'s link.
  static func previewTags(for day: CalendarDay, origin: String) -> String {
    let preview = DailyPreview(day: day)
    let url = origin + preview.path
    let image = "\(origin)/api/cryptogram/dailies/\(day)/card.png"
    let tags: [(String, String, String)] = [
      ("property", "og:type", "website"),
      ("property", "og:site_name", "CompletionKit"),
      ("property", "og:title", preview.title),
      ("property", "og:description", preview.description),
      ("property", "og:url", url),
      ("property", "og:image", image),
      ("property", "og:image:type", "image/png"),
      ("property", "og:image:width", "1080"),
      ("property", "og:image:height", "1080"),
      ("property", "og:image:alt", preview.imageDescription),
      ("name", "twitter:card", "summary_large_image"),
    ]
    return tags.map { "  <meta \($0.0)=\"\($0.1)\" content=\"\(escape($0.2))\">\n" }.joined()
      + "  <link rel=\"canonical\" href=\"\(escape(url))\">\n"
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }
}
