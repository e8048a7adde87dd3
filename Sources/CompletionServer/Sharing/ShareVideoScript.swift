import CompletionCore
import Foundation
import Imaging

/// How one share video plays, and the FFmpeg command that makes it.
///
/// The still layers are drawn once by `Imaging` (`VideoArtist`); this script lets a single FFmpeg run do every
/// moving pixel — the background's slow zoom, each layer's fade and rise — and encode the result. Each layer comes
/// in at the delay of the ``Choreography`` step it is named after, along that step's own curve, so the video plays
/// the timeline the page plays (no timing is written here twice).
struct ShareVideoScript: Sendable {
  /// Frames per second: what vertical video platforms expect.
  static let framesPerSecond = 30
  /// Seconds of the photo alone before the choreography starts, so the first frame (a platform's thumbnail) is the
  /// picture and the celebration visibly arrives.
  static let leadIn = 0.8
  /// Seconds the finished picture holds after the last step has settled: long enough to read the story.
  static let hold = 4.0
  /// Platforms take short clips; 6–8 s plays through once and loops without feeling cut.
  static let durationRange = 6.0...8.0
  /// How much the background grows over the whole video (a slow zoom, not a choreography step).
  static let zoom = 0.08
  /// Page offsets are in points on a phone about 390 points wide; the frame is 1080 pixels wide.
  static let pixelsPerPoint = Double(VideoArtist.width) / 390

  /// The timeline, already adapted to full motion (a video is watched by choice, as a page's reduced motion
  /// preference is the viewer's own; calm mode offers the still card instead of a video).
  let choreography: Choreography

  /// The video's length in seconds.
  var duration: Double {
    min(max(Self.leadIn + choreography.totalDuration + Self.hold, Self.durationRange.lowerBound), Self.durationRange.upperBound)
  }

  /// Frames in the video.
  var frameCount: Int { Int((duration * Double(Self.framesPerSecond)).rounded()) }

  /// When a layer of `step` starts to show, how long its fade takes, and its rise as an FFmpeg expression of `t`
  /// (pixels below its place); nil for a step the choreography does not have (the layer is simply there).
  struct Entrance: Equatable {
    let start: Double
    let fade: Double
    let rise: String
  }

  func entrance(of stepID: String) -> Entrance? {
    guard let step = choreography.step(stepID) else { return nil }
    let start = Self.leadIn + step.delay
    let frame = 1 / Double(Self.framesPerSecond)
    // Sample the step at every frame it moves in: FFmpeg evaluates the overlay's position once per frame, so a
    // value per frame is the curve exactly, springs' overshoot included.
    let frames = max(1, Int((step.activeDuration / frame).rounded(.up)))
    // (A step's `appearance(at:)` counts from the start of the sequence, so sample from its delay on.)
    let samples = (0...frames).map { step.appearance(at: step.delay + Double($0) * frame) }
    // The fade is linear (FFmpeg's fade filter); it lasts until the step's own opacity has arrived.
    let opaqueFrame = samples.firstIndex { $0.opacity >= step.to.opacity - 0.01 } ?? frames
    let fade = step.from.opacity >= step.to.opacity ? 0 : max(Double(opaqueFrame) * frame, frame)
    let offsets = samples.map { ($0.offsetY * Self.pixelsPerPoint).rounded() }
    return Entrance(start: start, fade: fade, rise: Self.piecewise(offsets, start: start, frame: frame))
  }

  /// `values[i]` from frame i after `start` on, the last value after them: nested `if(lt(t,…))`, thresholds halfway
  /// between frames so rounding of `t` never picks a neighbour.
  static func piecewise(_ values: [Double], start: Double, frame: Double) -> String {
    var trimmed = values
    while trimmed.count > 1, trimmed[trimmed.count - 1] == trimmed[trimmed.count - 2] { trimmed.removeLast() }
    guard let last = trimmed.last else { return "0" }
    if trimmed.allSatisfy({ $0 == last }) { return number(last) }
    var expression = number(last)
    for index in stride(from: trimmed.count - 2, through: 0, by: -1) {
      expression = "if(lt(t,\(number(start + (Double(index) + 0.5) * frame))),\(number(trimmed[index])),\(expression))"
    }
    return "if(lt(t,\(number(start))),\(number(trimmed[0])),\(expression))"
  }

  /// A number as FFmpeg reads it: plain decimals, never exponents.
  static func number(_ value: Double) -> String {
    let rounded = (value * 10_000).rounded() / 10_000
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    return String(format: "%.4f", rounded)
  }

  /// The arguments of one FFmpeg run.
  /// - Parameters:
  ///   - background: the photo (any format FFmpeg reads) or the art's small background PNG.
  ///   - layers: each layer with the file its PNG was written to, bottom first.
  ///   - output: where the MP4 goes.
  func arguments(background: String, layers: [(file: String, layer: VideoLayer)], output: String) -> [String] {
    let (width, height) = (VideoArtist.width, VideoArtist.height)
    let frames = frameCount
    let seconds = Self.number(duration)
    // Each picture is decoded once and repeated by the `loop` filter (cheaper than re-reading a looped input for
    // every frame); `setpts` gives the repeats the video's clock.
    let repeatFrames = "loop=loop=\(frames - 1):size=1:start=0,setpts=N/\(Self.framesPerSecond)/TB"
    var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", background]
    for entry in layers { arguments += ["-i", entry.file] }
    // A silent stereo track: some platforms refuse a video without sound.
    arguments += ["-f", "lavfi", "-t", seconds, "-i", "anullsrc=channel_layout=stereo:sample_rate=48000"]

    // The background fills the frame (cropped, never letterboxed), then grows slowly about its centre: each frame
    // is scaled (bilinear is plenty for a photo moving this slowly) and cropped back to the frame.
    let grow = "\(Self.number(Self.zoom))*t/\(seconds)"
    var graph = [
      "[0:v]scale=\(width):\(height):force_original_aspect_ratio=increase,crop=\(width):\(height),setsar=1,format=yuv420p,"
        + "\(repeatFrames),scale=w='2*trunc(\(width / 2)*(1+\(grow)))':h='2*trunc(\(height / 2)*(1+\(grow)))':eval=frame:flags=bilinear,"
        + "crop=\(width):\(height)[base]"
    ]
    var below = "base"
    for (index, entry) in layers.enumerated() {
      let input = index + 1
      let frame = entry.layer.frame
      let (x, y) = (Int(frame.x.rounded()), Int(frame.y.rounded()))
      let size = "\(Int(frame.width.rounded())):\(Int(frame.height.rounded()))"
      var chain = "[\(input):v]format=rgba,scale=\(size),\(repeatFrames)"
      var rise = "0"
      if let entrance = entrance(of: entry.layer.step) {
        if entrance.fade > 0 {
          chain += ",fade=t=in:st=\(Self.number(entrance.start)):d=\(Self.number(entrance.fade)):alpha=1"
        }
        rise = entrance.rise
      }
      graph.append(chain + "[l\(input)]")
      let next = index == layers.count - 1 ? "composed" : "c\(input)"
      graph.append("[\(below)][l\(input)]overlay=x=\(x):y='\(y)+(\(rise))':eval=frame[\(next)]")
      below = next
    }
    if layers.isEmpty { graph.append("[base]null[composed]") }
    graph.append("[composed]format=yuv420p[video]")

    arguments += ["-filter_complex", graph.joined(separator: ";"), "-map", "[video]", "-map", "\(layers.count + 1):a"]
    // libx264 "ultrafast": measured here on a 7 s video, the compositing takes about 1.7 s of CPU and the encoder
    // 1.2 s at "ultrafast", 2.4 s at "superfast" and more at "veryfast"; only "ultrafast" keeps a video under its
    // 3 s budget when every core runs an encode (one each). The price is a larger file (about 2 MB for 7 s; the
    // platforms re-encode anyway). CRF 23 is x264's default quality. yuv420p and `+faststart` (the index at the
    // front) are what phones and platforms play, and play while the file is still arriving.
    arguments += [
      "-c:v", "libx264", "-preset", "ultrafast", "-crf", "23", "-pix_fmt", "yuv420p", "-r", "\(Self.framesPerSecond)",
      "-c:a", "aac", "-b:a", "96k", "-t", seconds, "-movflags", "+faststart",
      // Progress as key=value lines on stdout (out_time_us=…), read for the share sheet's progress bar.
      "-progress", "pipe:1", "-nostats", "-f", "mp4", output,
    ]
    return arguments
  }
}
