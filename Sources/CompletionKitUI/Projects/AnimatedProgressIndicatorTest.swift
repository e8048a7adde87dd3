#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import CompletionCore
import Projects
import SwiftUI

/// The seed's test component for the completion ring, the twin of the web page `/projects/lab`: a slider and
/// preset buttons drive a real test project through the server, the ring is shown at every size the app
/// uses, the server's percentage stands beside the ring's value, the animator's value is plotted over its
/// duration, and a warning shows whenever the two disagree once the ring rests.
///
/// The percentage, fraction and counts are the server's (``ProjectsModel``); the motion is the core's
/// ``ProjectRing`` animator, the same one ``ProjectCompletionIndicator`` runs.
public struct AnimatedProgressIndicatorTest: View {
  /// The test project's name and how many tasks it is made with (the slider moves one task a step).
  public static let benchName = "Ring test bench"
  static let benchTasks = 20
  /// The seed's sizes (group headers, selector, sidebar, header) and a large one to look closely.
  static let sizes = [
    RingSize(size: ProjectRing.Geometry.sizes.groupHeader, label: "10 pt"),
    RingSize(size: ProjectRing.Geometry.sizes.selector, label: "12 pt"),
    RingSize(size: ProjectRing.Geometry.sizes.sidebar, label: "16 pt"),
    RingSize(size: ProjectRing.Geometry.sizes.header, label: "20 pt"),
    RingSize(size: 96, label: "Large"),
  ]
  /// The seed's transitions: 0 → 50, 50 → 100, 100 → 50, 50 → 0.
  static let transitions = [Transition(from: 0, to: 50), Transition(from: 50, to: 100), Transition(from: 100, to: 50), Transition(from: 50, to: 0)]

  @State private var model: ProjectsModel
  @State private var slider = 0.0
  @State private var working = false
  /// The readout's own animator, retargeted exactly as the indicators' are, so its value is what they show.
  @State private var animator = ProjectRing.animator()
  @State private var trace: [TracePoint] = []
  @State private var sampling = false
  /// The one source of time (the model's too): sampling and waiting go through it, never `Date()` or `Task.sleep`.
  @State private var clock: any ModelClock
  /// The project as last read from the server directly (the independent side of the comparison).
  @State private var checked: ProjectView?
  /// What went wrong in the bench itself (the model's own problems show too).
  @State private var problem: String?
  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// A bench working through `client` (the person's account: the test project is theirs and shows everywhere).
  public init(client: CompletionClient, clock: any ModelClock = SystemModelClock()) {
    _model = State(
      initialValue: ProjectsModel(client: client, clock: clock, haptics: nil, animator: SwiftUIStateAnimator()))
    _clock = State(initialValue: clock)
  }

  private var project: ProjectView? { model.projects.first { $0.name == Self.benchName } }
  /// What the ring must end at: the newest of the model's view and the direct check.
  private var expected: ProjectView? {
    guard let project else { return nil }
    guard let checked, checked.id == project.id, checked.revision > project.revision else { return project }
    return checked
  }

  public var body: some View {
    ScrollView {
      VStack(alignment: .leading, spacing: 20) {
        if let project {
          controls(project)
          rings(project)
          comparison(project)
          plot
          debugging(project)
        } else {
          setup
        }
        if let problem = problem ?? model.problem {
          Text(verbatim: problem).foregroundStyle(.red)
        }
      }
      .padding()
    }
    .navigationTitle("Ring test bench")
    .task {
      await model.load()
      if let project { await model.open(project.id) }
      model.followLive()
    }
    .onDisappear { model.stopFollowing() }
    .onChange(of: project?.fraction) { old, fraction in
      guard let fraction else { return }
      // The first value is shown at once, as the indicators show theirs; later ones animate.
      if old == nil { animator.reset(to: fraction) } else { follow(fraction) }
    }
  }

  // MARK: Parts

  private var setup: some View {
    VStack(alignment: .leading, spacing: 12) {
      Text("No test project yet").font(.headline)
      Text("The bench makes a project called “\(Self.benchName)” with \(Self.benchTasks) tasks.")
        .foregroundStyle(.secondary)
      Button("Make the test project") { run { await makeBench() } }
        .buttonStyle(.borderedProminent)
        .disabled(working)
    }
  }

  private func controls(_ project: ProjectView) -> some View {
    VStack(alignment: .leading, spacing: 12) {
      HStack {
        Text("Completed")
        Slider(
          value: $slider, in: 0...100, step: 5,
          onEditingChanged: { editing in
            // A drag sends once, where it ends.
            if !editing { run { await drive(to: slider) } }
          }
        )
        .accessibilityLabel(Text("Completed"))
        Text(verbatim: "\(Int(slider))%").monospacedDigit().frame(width: 48, alignment: .trailing)
      }
      HStack {
        ForEach([0.0, 25, 50, 75, 100], id: \.self) { value in
          Button { run { await drive(to: value) } } label: { Text(verbatim: "\(Int(value))%") }
        }
      }
      HStack {
        ForEach(Self.transitions, id: \.self) { transition in
          Button {
            run {
              await drive(to: transition.from)
              await waitForRest()
              await drive(to: transition.to)
            }
          } label: {
            Text(verbatim: "\(Int(transition.from)) → \(Int(transition.to))")
          }
        }
      }
      HStack {
        Button("Burst of ten changes") { run { await burst() } }
        Button("Check against the server") { run { await check() } }
        Button("Delete the test project", role: .destructive) { run { await model.deleteProject(project.id) } }
      }
    }
    .buttonStyle(.bordered)
    .disabled(working)
  }

  private func rings(_ project: ProjectView) -> some View {
    HStack(alignment: .center, spacing: 24) {
      ForEach(Self.sizes, id: \.self) { entry in
        VStack(spacing: 6) {
          ProjectCompletionIndicator(
            fraction: project.fraction, percent: project.percent, name: project.name, color: Self.color(project.color),
            size: entry.size)
          Text(verbatim: entry.label).font(.caption).foregroundStyle(.secondary)
        }
      }
    }
  }

  private func comparison(_ project: ProjectView) -> some View {
    TimelineView(.animation(paused: !animator.isAnimating)) { _ in
      let shown = animator.value
      let expected = self.expected ?? project
      let differs = !animator.isAnimating && (shown != expected.fraction || animator.target != expected.fraction)
      VStack(alignment: .leading, spacing: 8) {
        HStack(alignment: .top, spacing: 32) {
          VStack(alignment: .leading) {
            Text("Expected (the server)").font(.subheadline.weight(.semibold))
            Text(verbatim: "\(expected.percent)%").font(.largeTitle.bold()).monospacedDigit()
            Text(verbatim: "\(expected.completed) of \(expected.total) done · revision \(expected.revision)")
              .font(.caption).foregroundStyle(.secondary)
          }
          VStack(alignment: .leading) {
            Text("Actual (the ring)").font(.subheadline.weight(.semibold))
            Text(verbatim: Self.percentText(shown)).font(.largeTitle.bold()).monospacedDigit()
            Text(animator.isAnimating ? "moving" : "at rest").font(.caption).foregroundStyle(.secondary)
          }
        }
        if differs {
          let warning = "The ring shows \(Self.percentText(shown)) but the server says \(expected.percent)%."
          Label(warning, systemImage: "exclamationmark.triangle.fill")
            .foregroundStyle(.red)
        }
      }
    }
  }

  private var plot: some View {
    VStack(alignment: .leading, spacing: 6) {
      Text("The last animation").font(.headline)
      Canvas { context, size in
        let span = max(ProjectRing.duration, trace.last?.seconds ?? 0)
        func point(_ sample: TracePoint) -> CGPoint {
          CGPoint(x: size.width * sample.seconds / span, y: size.height * (1 - sample.value))
        }
        var grid = Path()
        for level in [0.0, 0.5, 1.0] {
          grid.move(to: CGPoint(x: 0, y: size.height * (1 - level)))
          grid.addLine(to: CGPoint(x: size.width, y: size.height * (1 - level)))
        }
        let end = size.width * ProjectRing.duration / span
        grid.move(to: CGPoint(x: end, y: 0))
        grid.addLine(to: CGPoint(x: end, y: size.height))
        context.stroke(grid, with: .color(Color.gray.opacity(0.4)), lineWidth: 1)
        guard let first = trace.first else { return }
        var line = Path()
        line.move(to: point(first))
        for sample in trace.dropFirst() { line.addLine(to: point(sample)) }
        context.stroke(line, with: .color(Color.accentColor), lineWidth: 2)
      }
      .frame(height: 160)
      .accessibilityLabel(Text("Plot of the ring's value over \(ProjectRing.duration, format: .number) seconds"))
    }
  }

  private func debugging(_ project: ProjectView) -> some View {
    Grid(alignment: .leading, horizontalSpacing: 16, verticalSpacing: 4) {
      GridRow { Text("Duration"); Text("\(ProjectRing.duration, format: .number) s") }
      GridRow { Text("Motion"); Text(reduceMotion ? "Reduced: set at once" : "Full: animates") }
      GridRow { Text("Project"); Text(verbatim: "\(project.id.prefix(8)) · revision \(project.revision)") }
      GridRow { Text("Tasks"); Text(verbatim: "\(project.completed) of \(project.total) done") }
      GridRow { Text("Live"); Text(model.isLive ? "live" : "reconnecting") }
      GridRow { Text("Frames"); Text(verbatim: "\(trace.count)") }
    }
    .font(.caption.monospaced())
  }

  // MARK: Actions

  private func run(_ action: @escaping @MainActor () async -> Void) {
    guard !working else { return }
    working = true
    Task { @MainActor in
      await action()
      working = false
    }
  }

  private func makeBench() async {
    let lines = ["# \(Self.benchName)"] + (1...Self.benchTasks).map { "- Bench task \($0)" }
    do {
      _ = try await model.client.importProjects(plainList: lines.joined(separator: "\n") + "\n")
    } catch {
      problem = "The test project could not be made: \(error)"
      return
    }
    await model.load()
    if let project { await model.open(project.id) }
  }

  /// Completes or reopens tasks until as many are done as the slider asks; the percentage is the server's.
  private func drive(to percent: Double) async {
    guard let project else { return }
    await model.open(project.id)
    let tasks = model.tasks.sorted { $0.position < $1.position }
    let want = Int((percent / 100 * Double(tasks.count)).rounded())
    let done = tasks.filter(\.completed)
    let open = tasks.filter { !$0.completed }
    if want > done.count {
      for task in open.prefix(want - done.count) { await model.setCompleted(task.id, true) }
    } else {
      for task in done.suffix(done.count - want).reversed() { await model.setCompleted(task.id, false) }
    }
    slider = Double(self.project?.percent ?? 0)
  }

  /// Ten changes in quick succession (each flips one of the first ten tasks).
  private func burst() async {
    guard let project else { return }
    await model.open(project.id)
    let tasks = model.tasks.sorted { $0.position < $1.position }
    guard !tasks.isEmpty else { return }
    for index in 0..<10 {
      let id = tasks[index % tasks.count].id
      let completed = model.tasks.first { $0.id == id }?.completed ?? false
      await model.setCompleted(id, !completed)
    }
  }

  private func check() async {
    guard let project else { return }
    do {
      checked = try await model.client.tasks(inProject: project.id).project
    } catch {
      problem = "The server could not be asked: \(error)"
    }
  }

  private func waitForRest() async {
    while animator.isAnimating {
      await withCheckedContinuation { (rested: CheckedContinuation<Void, Never>) in
        clock.schedule(after: Self.frameSeconds) { rested.resume() }
      }
    }
  }

  /// About one display frame: how often the readout samples the ring's value.
  static let frameSeconds = 1.0 / 60

  /// Retargets the readout's animator as the indicators retarget theirs, and records its value frame by frame.
  private func follow(_ fraction: Double) {
    if reduceMotion { animator.reset(to: fraction) } else { animator.retarget(to: fraction) }
    guard !sampling else { return }
    sampling = true
    let start = clock.now
    trace = [TracePoint(seconds: 0, value: animator.value)]
    sample(since: start)
  }

  /// Records the ring's value now, and again a frame later until it rests.
  private func sample(since start: Date) {
    trace.append(TracePoint(seconds: clock.now.timeIntervalSince(start), value: animator.value))
    guard animator.isAnimating else {
      sampling = false
      return
    }
    clock.schedule(after: Self.frameSeconds) { sample(since: start) }
  }

  /// "37.5%": the ring's value as a percentage with one decimal (a reading, not the server's whole percent).
  static func percentText(_ value: Double) -> String {
    (value * 100).formatted(.number.precision(.fractionLength(1))) + "%"
  }

  static func color(_ name: String) -> Color {
    switch ProjectColor(rawValue: name) ?? .gray {
    case .red: .red
    case .orange: .orange
    case .yellow: .yellow
    case .green: .green
    case .blue: .blue
    case .purple: .purple
    case .pink: .pink
    case .gray: .gray
    }
  }

  /// A size the bench shows the ring at.
  struct RingSize: Hashable, Sendable {
    let size: CGFloat
    let label: String
  }

  /// One of the seed's transitions, from one slider value to another.
  struct Transition: Hashable, Sendable {
    let from: Double
    let to: Double
  }

  /// One frame of the plot: seconds since the animation started and the ring's value then.
  struct TracePoint: Hashable, Sendable {
    let seconds: Double
    let value: Double
  }
}
#endif
