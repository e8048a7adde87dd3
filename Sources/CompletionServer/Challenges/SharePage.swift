import Challenges
import Foundation

/// The public page of a shared completion (`/s/{id}`): the card, a line about it, and Open Graph tags
/// so a link pasted into a chat shows the card.
enum SharePage {
  static func render(_ activity: Post, origin: String) -> String {
    let title = activity.challenge?.title ?? activity.title
    let name = activity.author.displayName
    let points = activity.points ?? 0
    let path = "/s/\(activity.id.uuidString)"
    let card = "\(origin)\(path)/card.png"
    let heading = "\(name) completed \(title)!"
    let description = "\(points) points earned in a \(activity.challenge?.type ?? "") cooking challenge on CompletionKit."
    let story = activity.story.map { "<p class=\"share-story\">“\(escape($0))”</p>" } ?? ""
    return """
      <!doctype html>
      <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(heading)) — CompletionKit</title>
        <meta name="description" content="\(escape(description))">
        <meta property="og:type" content="article">
        <meta property="og:title" content="\(escape(heading))">
        <meta property="og:description" content="\(escape(description))">
        <meta property="og:image" content="\(escape(card))">
        <meta property="og:image:type" content="image/png">
        <meta property="og:image:width" content="1080">
        <meta property="og:image:height" content="1350">
        <meta property="og:image:alt" content="\(escape("Share card: \(heading)"))">
        <meta property="og:url" content="\(escape(origin + path))">
        <meta name="twitter:card" content="summary_large_image">
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/css/app.css">
        <link rel="stylesheet" href="/css/share.css">
      </head>
      <body class="share-body">
        <main class="share-page">
          <img class="share-card" src="\(escape(path))/card.png" width="1080" height="1350" alt="\(escape("Share card: \(heading) \(points) points earned."))">
          <h1 class="share-title">\(escape(heading))</h1>
          <p class="share-meta"><span class="share-points">★ \(points) points earned</span></p>
          \(story)
          <a class="button share-cta" href="/challenges">Try CompletionKit challenges</a>
          <section class="share-report" id="share-report" data-post="\(activity.id.uuidString)" data-author="\(activity.author.id.uuidString)" hidden>
            <details>
              <summary>Report this post</summary>
              <form id="report-form" novalidate>
                <label for="report-reason">What is wrong with it? (optional)</label>
                <textarea id="report-reason" rows="3"></textarea>
                <button class="button" type="submit" id="report-send">Send report</button>
              </form>
            </details>
            <p class="share-report-note" id="report-status" role="status"></p>
          </section>
          <p class="share-report-signin" id="report-signin" hidden><a href="/">Sign in</a> to report this post.</p>
        </main>
        <script type="module" src="/js/share-page.js"></script>
      </body>
      </html>
      """
  }

  static func notFound() -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Not shared — CompletionKit</title>
      <link rel="stylesheet" href="/css/app.css">
      <link rel="stylesheet" href="/css/share.css">
    </head>
    <body class="share-body">
      <main class="share-page">
        <h1 class="share-title">This completion is not shared</h1>
        <p class="share-meta">Its owner may have turned its public link off.</p>
        <a class="button share-cta" href="/challenges">Try CompletionKit challenges</a>
      </main>
    </body>
    </html>
    """
  }

  /// Text safe inside HTML content and attribute values.
  static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }
}
