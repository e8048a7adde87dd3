import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Projects

@Suite("Projects")
struct ProjectsTests {
  @Test("Kept counts: any sequence of adds, toggles, moves and deletes ends equal to a recount")
  func deltasMatchRecount() async {
    // An operation on a small world of tasks: (kind, task index, flag, list index).
    let operation = PropertyBased.zip(Gen.int(in: 0...3), Gen.int(in: 0...9), Gen.bool, Gen.int(in: 0...2))
    await propertyCheck(count: 200, input: operation.array(of: 1...60)) { operations in
      var tasks: [Int: (list: Int, done: Bool)] = [:]
      var kept = [CompletionRatio](repeating: CompletionRatio(completed: 0, total: 0), count: 3)
      for (kind, id, flag, list) in operations {
        switch (kind, tasks[id]) {
        case (0, nil):
          tasks[id] = (list, flag)
          kept[list] = CountDelta.added(completed: flag).applied(to: kept[list])
        case (1, let task?):
          tasks[id] = (task.list, flag)
          kept[task.list] = CountDelta.toggled(from: task.done, to: flag).applied(to: kept[task.list])
        case (2, let task?):
          tasks[id] = (list, task.done)
          kept[task.list] = CountDelta.removed(completed: task.done).applied(to: kept[task.list])
          kept[list] = CountDelta.added(completed: task.done).applied(to: kept[list])
        case (3, let task?):
          tasks[id] = nil
          kept[task.list] = CountDelta.removed(completed: task.done).applied(to: kept[task.list])
        default: break
        }
      }
      for list in 0..<3 {
        let inList = tasks.values.filter { $0.list == list }
        #expect(kept[list] == CompletionRatio(completed: inList.filter(\.done).count, total: inList.count))
      }
    }
  }

  @Test("Toggling to the same state changes nothing")
  func toggleSame() {
    #expect(CountDelta.toggled(from: true, to: true).isZero)
    #expect(CountDelta.toggled(from: false, to: true) == CountDelta(completed: 1))
  }

  @Test("Coalescer: a burst inside one window is one flush; the next change opens a new window")
  func coalescer() {
    var coalescer = ChangeCoalescer<String>()
    #expect(coalescer.window == 0.1)
    #expect(coalescer.note("a", at: 10) == 10.1)
    for i in 1...9 { #expect(coalescer.note(i.isMultiple(of: 2) ? "a" : "b", at: 10 + Double(i) * 0.01) == nil) }
    #expect(coalescer.flush() == ["a", "b"])
    #expect(!coalescer.isWaiting)
    #expect(coalescer.flush().isEmpty)
    #expect(coalescer.note("c", at: 20) == 20.1)
  }

  @Test("Plain list: headings make projects, tasks before them go to the Inbox, bullets and done marks are read")
  func plainList() throws {
    let text = """
      Call the plumber
      # Garden
      - [x] Buy seeds
      * Dig the beds
      1. Water daily

      ## Kitchen
      • [ ] Paint the door
      """
    let list = try PlainListImport.parse(text).get()
    #expect(list.inbox == [.init(title: "Call the plumber")])
    #expect(list.projects.map(\.name) == ["Garden", "Kitchen"])
    #expect(list.projects[0].tasks == [.init(title: "Buy seeds", completed: true), .init(title: "Dig the beds"), .init(title: "Water daily")])
    #expect(list.projects[1].tasks == [.init(title: "Paint the door")])
    #expect(list.taskCount == 5)
  }

  @Test("Plain list: a bad line refuses the whole list with its line number; an empty list is refused")
  func plainListRefusals() {
    guard case .failure(.badLines(let problems)) = PlainListImport.parse("ok\n#\n- \n" + String(repeating: "x", count: 501)) else {
      Issue.record("expected bad lines")
      return
    }
    #expect(problems.map(\.line) == [2, 3, 4])
    #expect(PlainListImport.parse("  \n\n") == .failure(.empty))
    #expect(PlainListImport.parse("# Only a project").map(\.projects.count) == .success(1))
  }

  @Test("Ring samples run from 0 to 1, never backwards, on the animator's curve")
  func ringSamples() {
    let samples = ProjectRing.samples(count: 41)
    #expect(samples.first == 0 && samples.last == 1)
    #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
    let clock = ManualMotionClock()
    var animator = ProjectRing.animator(clock: clock)
    animator.retarget(to: 1)
    clock.advance(by: ProjectRing.duration / 2)
    #expect(abs(animator.value - samples[20]) < 1e-9)
  }

  @Test("A project completes once: the same project always has the same key, and pays points once")
  func completionKey() {
    let first = ProjectCompletion.completion(projectID: "p1", account: "u1", at: Date(timeIntervalSince1970: 0), timeZone: "UTC")
    let again = ProjectCompletion.completion(projectID: "p1", account: "u1", at: Date(timeIntervalSince1970: 99), timeZone: "UTC")
    #expect(first.key == again.key)
    let entries = ProjectCompletion.rules.reward.entries(for: first)
    #expect(entries.map(\.amount) == [ProjectCompletion.pointsPerProject])
    #expect(entries.map(\.key) == ProjectCompletion.rules.reward.entries(for: again).map(\.key))
    #expect(ProjectCompletion.choreography.steps.map(\.id) == ["ring", "check", "name"])
  }

  @Test("Priorities keep the original's 0–3 levels")
  func priorities() {
    #expect(TaskPriority.allCases.map(\.level) == [0, 1, 2, 3])
    #expect(TaskPriority(level: 3) == .high)
    #expect(TaskPriority(level: 4) == nil)
    #expect(ProjectColor.allCases.count == 8)
  }
}
