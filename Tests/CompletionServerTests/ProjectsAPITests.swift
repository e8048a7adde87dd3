import AsyncHTTPClient
import CompletionAPI
import CompletionClient
import FluentSQL
import Foundation
import NIOCore
import Testing
import Vapor

@testable import CompletionServer

/// Reads server-sent events from a real HTTP connection.
final class EventStreamReader: @unchecked Sendable {
  private let client = HTTPClient(eventLoopGroupProvider: .singleton)
  private var iterator: HTTPClientResponse.Body.AsyncIterator?
  private var buffer = ""

  /// Opens `path` with `client`'s session cookie (and `Last-Event-ID` when given).
  init(_ test: TestClient, path: String = "/api/projects/events", lastEventID: Int? = nil) async throws {
    var request = HTTPClientRequest(url: test.base + path)
    if let cookie = test.sessionCookie { request.headers.add(name: "Cookie", value: "ck_session=\(cookie)") }
    if let lastEventID { request.headers.add(name: "Last-Event-ID", value: String(lastEventID)) }
    // A deadline for the whole stream: a test that waits for an event that never comes fails, never hangs.
    let response: HTTPClientResponse
    do {
      response = try await client.execute(request, timeout: .seconds(30))
    } catch {
      try? await client.shutdown()
      throw error
    }
    guard response.status == .ok else {
      try? await client.shutdown()  // a client left running traps when it goes away
      throw Abort(response.status)
    }
    iterator = response.body.makeAsyncIterator()
  }

  /// The next `projects` event's update (comments and the retry line are skipped).
  func next() async throws -> ProjectsLiveUpdate {
    while true {
      if let end = buffer.range(of: "\n\n") {
        let block = String(buffer[..<end.lowerBound])
        buffer.removeSubrange(..<end.upperBound)
        let data = block.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        if let data { return try JSONDecoder().decode(ProjectsLiveUpdate.self, from: Data(data.utf8)) }
        continue
      }
      guard let chunk = try await iterator?.next() else { throw Abort(.gone, reason: "the stream ended") }
      buffer += String(buffer: chunk)
    }
  }

  /// The next event of any name, as its name and data (comments and the retry line are skipped); nil once the
  /// server has ended the stream. Heartbeats keep the connection busy, so a test waiting for an event that never
  /// comes would wait for ever: after `deadline` seconds the connection is cut, and this throws instead.
  func nextEvent(deadline: Double = 30) async throws -> (name: String, data: String)? {
    let client = client
    let watchdog = Task {
      try await Task.sleep(for: .seconds(deadline))
      try? await client.shutdown()
    }
    defer { watchdog.cancel() }
    while true {
      if let end = buffer.range(of: "\n\n") {
        let lines = buffer[..<end.lowerBound].split(separator: "\n")
        buffer.removeSubrange(..<end.upperBound)
        guard let data = lines.first(where: { $0.hasPrefix("data: ") }) else { continue }
        let name = lines.first { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) } ?? "message"
        return (name, String(data.dropFirst(6)))
      }
      guard let chunk = try await iterator?.next() else { return nil }
      buffer += String(buffer: chunk)
    }
  }

  /// A reader a failing test never closed shuts its client down here (a client left running traps when it goes).
  deinit {
    client.shutdown { _ in }
  }

  func close() async throws {
    iterator = nil
    try? await client.shutdown()  // cut already when a deadline passed
  }
}

@Suite("Projects API")
struct ProjectsAPITests {
  static func project(_ client: TestClient, _ name: String? = "Garden", color: String? = nil) async throws -> ProjectView {
    let response = try await client.send(.POST, "/api/projects", json: ProjectRequest(name: name, color: color))
    #expect(response.status == .created)
    return try client.decode(ProjectView.self, from: response)
  }

  static func task(_ client: TestClient, _ title: String, in project: ProjectView?) async throws -> TaskChangeResponse {
    let response = try await client.send(
      .POST, "/api/tasks", json: TaskRequest(title: title, projectId: project.map { .set($0.id) } ?? .unchanged))
    #expect(response.status == .created)
    return try client.decode(TaskChangeResponse.self, from: response)
  }

  static func toggle(_ client: TestClient, _ taskID: String, _ completed: Bool, headers: HTTPHeaders = [:]) async throws -> TestResponse {
    try await client.send(.PATCH, "/api/tasks/\(taskID)", json: TaskRequest(completed: completed), headers: headers)
  }

  static func verify(_ app: Application) async throws {
    let (_, mismatches) = try await SQLProjectsStore(app.db).verify()
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test("Counts follow every change; the last task completes the project once, paying points once")
  func countsAndCompletion() async throws {
    try await withTestApp { client, app in
      let garden = try await Self.project(client, "Garden", color: "green")
      #expect(garden.name == "Garden" && garden.color == "green" && garden.total == 0 && garden.percent == 0)
      var tasks: [TaskView] = []
      for title in ["Seeds", "Dig", "Water"] { tasks.append(try #require(try await Self.task(client, title, in: garden).task)) }
      let first = try client.decode(TaskChangeResponse.self, from: try await Self.toggle(client, tasks[0].id, true))
      #expect(first.projects.first?.completed == 1 && first.projects.first?.total == 3 && first.projects.first?.percent == 33)
      #expect(first.completion == nil)
      _ = try await Self.toggle(client, tasks[1].id, true)
      let last = try client.decode(TaskChangeResponse.self, from: try await Self.toggle(client, tasks[2].id, true))
      #expect(last.projects.first?.isComplete == true && last.projects.first?.percent == 100)
      let completion = try #require(last.completion)
      #expect(completion.isFirst && completion.points == 10)
      #expect(completion.celebration?.steps.map(\.id) == ["ring", "check", "name"])
      // Reopen and finish again: celebrated, not paid again.
      _ = try await Self.toggle(client, tasks[2].id, false)
      let again = try client.decode(TaskChangeResponse.self, from: try await Self.toggle(client, tasks[2].id, true))
      #expect(again.completion?.isFirst == false && again.completion?.points == 0)
      let user = try #require(UUID(uuidString: try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me")).id))
      let balance = try await SQLLedgerStore(app.db).balance(of: user.uuidString, in: "points")
      #expect(balance == 10)
      // Toggling to the state it already has changes no count.
      let same = try client.decode(TaskChangeResponse.self, from: try await Self.toggle(client, tasks[2].id, true))
      #expect(same.projects.first?.completed == 3)
      try await Self.verify(app)
    }
  }

  @Test("Moving a task between projects and the Inbox, and deleting, keep every list's counts")
  func movesAndDeletes() async throws {
    try await withTestApp { client, app in
      let a = try await Self.project(client, "A")
      let b = try await Self.project(client, "B")
      let task = try #require(try await Self.task(client, "Paint", in: a).task)
      _ = try await Self.toggle(client, task.id, true)
      let moved = try client.decode(
        TaskChangeResponse.self, from: try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(projectId: .set(b.id))))
      #expect(Set(moved.projects.map(\.name)) == ["A", "B"])
      #expect(moved.projects.first { $0.name == "A" }?.total == 0)
      #expect(moved.projects.first { $0.name == "B" }?.completed == 1)
      let inbox = try client.decode(
        TaskChangeResponse.self, from: try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(projectId: .set(nil))))
      #expect(inbox.inbox.total == 1 && inbox.inbox.completed == 1 && inbox.task?.projectId == nil)
      let list = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/inbox/tasks"))
      #expect(list.tasks.map(\.title) == ["Paint"])
      let deleted = try client.decode(TaskChangeResponse.self, from: try await client.send(.DELETE, "/api/tasks/\(task.id)"))
      #expect(deleted.task == nil && deleted.inbox.total == 0)
      // Deleting a project deletes its tasks.
      _ = try await Self.task(client, "One", in: b)
      #expect(try await client.send(.DELETE, "/api/projects/\(b.id)").status == .noContent)
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.map(\.name) == ["A"])
      try await Self.verify(app)
    }
  }

  @Test("Bad input gets a stable code; another account's ids are not found")
  func badInputAndOtherAccounts() async throws {
    try await withTestApp { client, _ in
      let mine = try await Self.project(client)
      let task = try #require(try await Self.task(client, "Mine", in: mine).task)
      func code(_ response: TestResponse) throws -> String { try client.decode(APIErrorBody.self, from: response).code }
      var response = try await client.send(.POST, "/api/projects", json: ProjectRequest(color: "teal"))
      #expect(response.status == .badRequest)
      #expect(try code(response) == "invalid_color")
      response = try await client.send(.POST, "/api/tasks", json: TaskRequest(title: "  "))
      #expect(try code(response) == "empty_title")
      response = try await client.send(.POST, "/api/tasks", json: TaskRequest(title: String(repeating: "x", count: 501)))
      #expect(try code(response) == "too_long")
      // Limits count what was sent, in code points (the document's maxLength): padding or combining marks count.
      response = try await client.send(.POST, "/api/projects", json: ProjectRequest(notes: String(repeating: "e\u{301}", count: 5_001)))
      #expect(try code(response) == "too_long")
      response = try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(priority: "urgent"))
      #expect(try code(response) == "invalid_priority")
      response = try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(dueDate: .set("2026-02-30")))
      #expect(try code(response) == "invalid_due_date")
      response = try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(dueDate: .set("0002-07-04")))
      #expect(try code(response) == "invalid_due_date")
      response = try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(title: "Two\nlines\u{7}"))
      #expect(try client.decode(TaskChangeResponse.self, from: response).task?.title == "Two lines")
      response = try await client.send(.POST, "/api/projects/import", raw: "{\"hello\": 1}")
      #expect(try code(response) == "invalid_import")
      response = try await client.send(.PATCH, "/api/tasks/not-a-uuid", json: TaskRequest(completed: true))
      #expect(try code(response) == "invalid_id")
      response = try await client.send(.PATCH, "/api/tasks/\(task.id)", raw: "{\"completed\": \"yes\"}")
      #expect(response.status == .badRequest)
      response = try await client.send(.POST, "/api/tasks", raw: "title=x", contentType: "application/x-www-form-urlencoded")
      #expect(response.status == .unsupportedMediaType)
      response = try await client.send(.PUT, "/api/projects/order", json: OrderRequest(ids: []))
      #expect(try code(response) == "order_mismatch")
      response = try await client.send(.POST, "/api/tasks", json: TaskRequest(title: "x", projectId: .set(UUID().uuidString)))
      #expect(try code(response) == "project_not_found")

      // Another person cannot read, change, move into or order someone else's things.
      let other = client.stranger()
      _ = try await Self.project(other, "Theirs")
      #expect(try await other.send(.GET, "/api/projects/\(mine.id)/tasks").status == .notFound)
      #expect(try await other.send(.PATCH, "/api/projects/\(mine.id)", json: ProjectRequest(name: "x")).status == .notFound)
      #expect(try await other.send(.DELETE, "/api/projects/\(mine.id)").status == .notFound)
      #expect(try await Self.toggle(other, task.id, true).status == .notFound)
      #expect(try await other.send(.DELETE, "/api/tasks/\(task.id)").status == .notFound)
      #expect(try await other.send(.POST, "/api/tasks", json: TaskRequest(title: "x", projectId: .set(mine.id))).status == .notFound)
      #expect(try await other.send(.PUT, "/api/tasks/order", json: OrderRequest(projectId: mine.id, ids: [task.id])).status == .notFound)
      let list = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(mine.id)/tasks"))
      #expect(list.tasks.map(\.completed) == [false] && list.project?.name == "Garden")
    }
  }

  @Test("Reordering projects and tasks")
  func ordering() async throws {
    try await withTestApp { client, _ in
      let a = try await Self.project(client, "A")
      let b = try await Self.project(client, "B")
      let c = try await Self.project(client, "C")
      #expect(try await client.send(.PUT, "/api/projects/order", json: OrderRequest(ids: [c.id, a.id, b.id])).status == .noContent)
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.map(\.name) == ["C", "A", "B"])
      var ids: [String] = []
      for title in ["1", "2", "3"] { ids.append(try #require(try await Self.task(client, title, in: a).task?.id)) }
      #expect(try await client.send(.PUT, "/api/tasks/order", json: OrderRequest(projectId: a.id, ids: ids.reversed())).status == .noContent)
      let list = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(a.id)/tasks"))
      #expect(list.tasks.map(\.title) == ["3", "2", "1"])
      let partial = try await client.send(.PUT, "/api/tasks/order", json: OrderRequest(projectId: a.id, ids: Array(ids.prefix(2))))
      #expect(partial.status == .badRequest)
    }
  }

  @Test("Export and import round-trip exactly (an archived project too); a plain list imports; a bad list changes nothing")
  func importExport() async throws {
    try await withTestApp { client, app in
      let file = ProjectsExport(
        inbox: [.init(title: "Call Mum", notes: "Sunday", priority: "high", dueDate: "2026-12-24", completed: false)],
        projects: [
          .init(
            name: "Garden", color: "green", notes: "Spring",
            tasks: [
              .init(title: "Seeds", notes: "", priority: "none", dueDate: nil, completed: true),
              .init(title: "Dig", notes: "beds", priority: "low", dueDate: nil, completed: false),
            ], archived: false),
          .init(name: "Empty", color: "pink", notes: "", tasks: [], archived: false),
          .init(name: "Last year", color: "blue", notes: "", tasks: [.init(title: "Plant", notes: "", priority: "none", dueDate: nil, completed: true)], archived: true),
        ])
      let imported = try client.decode(ProjectsImportResult.self, from: try await client.send(.POST, "/api/projects/import", json: file))
      #expect(imported.projectsAdded == 3 && imported.tasksAdded == 4)
      let exported = try client.decode(ProjectsExport.self, from: try await client.send(.GET, "/api/projects/export"))
      #expect(exported == file)
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.first?.percent == 50 && overview.inbox.active == 1)
      #expect(overview.projects.map(\.archived) == [false, false, true])
      // A file written before archiving (no `archived`) still imports, its project active.
      let older = #"{"format":"completionkit.projects","version":1,"inbox":[],"projects":[{"name":"Old file","color":"blue","notes":"","tasks":[]}]}"#
      let olderImport = try await client.send(.POST, "/api/projects/import", raw: older)
      #expect(try client.decode(ProjectsImportResult.self, from: olderImport).projectsAdded == 1)
      let withOld = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(withOld.projects.first { $0.name == "Old file" }?.archived == false)

      let text = "Buy milk\n# Kitchen\n- [x] Paint\n- Tiles\n"
      let plain = try await client.send(.POST, "/api/projects/import", raw: text, contentType: "text/plain")
      #expect(try client.decode(ProjectsImportResult.self, from: plain) == ProjectsImportResult(projectsAdded: 1, tasksAdded: 3))
      let bad = try await client.send(.POST, "/api/projects/import", raw: "ok\n#\n", contentType: "text/plain")
      let error = try client.decode(APIErrorBody.self, from: bad)
      #expect(bad.status == .badRequest && error.code == "invalid_import" && error.message.contains("Line 2"))
      var wrong = file
      wrong = ProjectsExport(inbox: wrong.inbox, projects: [.init(name: "X", color: "teal", notes: "", tasks: [])])
      #expect(try await client.send(.POST, "/api/projects/import", json: wrong).status == .badRequest)
      let after = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(after.projects.map(\.name) == ["Garden", "Empty", "Last year", "Old file", "Kitchen"])
      try await Self.verify(app)
    }
  }

  @Test("Concurrent changes from several clients keep the counts equal to a recount")
  func concurrentChanges() async throws {
    try await withTestApp { client, app in
      let project = try await Self.project(client)
      var ids: [String] = []
      for i in 0..<12 { ids.append(try #require(try await Self.task(client, "T\(i)", in: project).task?.id)) }
      let other = try await Self.project(client, "Other")
      let cookie = client.sessionCookie
      let taskIDs = ids
      try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<8 {
          group.addTask {
            let tab = client.stranger()
            tab.sessionCookie = cookie
            var generator = SystemRandomNumberGenerator()
            for step in 0..<15 {
              let id = taskIDs[Int.random(in: 0..<taskIDs.count, using: &generator)]
              switch (worker + step) % 3 {
              case 0: _ = try await Self.toggle(tab, id, Bool.random(using: &generator))
              case 1: _ = try await tab.send(.PATCH, "/api/tasks/\(id)", json: TaskRequest(projectId: .set(Bool.random() ? other.id : project.id)))
              default: _ = try await tab.send(.PATCH, "/api/tasks/\(id)", json: TaskRequest(projectId: .set(nil)))
              }
            }
          }
        }
        try await group.waitForAll()
      }
      try await Self.verify(app)
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.reduce(0) { $0 + $1.total } + overview.inbox.total == 12)
    }
  }

  @Test("An Idempotency-Key replays the first answer of a task change")
  func idempotentToggle() async throws {
    try await withTestApp { client, _ in
      let project = try await Self.project(client)
      let task = try #require(try await Self.task(client, "Only", in: project).task)
      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let first = try await Self.toggle(client, task.id, true, headers: key)
      _ = try await Self.toggle(client, task.id, false)
      let replay = try await Self.toggle(client, task.id, true, headers: key)
      #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
      #expect(replay.body == first.body)
      let list = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(project.id)/tasks"))
      #expect(list.tasks.first?.completed == false)  // the replay changed nothing
      #expect(try await Self.toggle(client, task.id, false, headers: key).status == .conflict)
    }
  }

  @Test("A batch completes or moves several tasks at once: all or none, one live update, a retried key changing once")
  func batchChanges() async throws {
    try await withTestApp { client, app in
      let garden = try await Self.project(client)
      let shed = try await Self.project(client, "Shed")
      var ids: [String] = []
      for title in ["Seeds", "Dig", "Water", "Weed"] { ids.append(try #require(try await Self.task(client, title, in: garden).task?.id)) }
      let loose = try #require(try await Self.task(client, "Loose", in: nil).task?.id)
      func code(_ response: TestResponse) throws -> String { try client.decode(APIErrorBody.self, from: response).code }
      func tasks(_ project: ProjectView?) async throws -> [TaskView] {
        try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(project?.id ?? "inbox")/tasks")).tasks
      }

      // All or none: an unknown task, another person's task, bad input: 4xx and nothing changes.
      let stranger = client.stranger()
      let theirs = try #require(try await Self.task(stranger, "Theirs", in: nil).task?.id)
      let unknown = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [ids[0], UUID().uuidString], done: true))
      #expect(unknown.status == .notFound)
      #expect(try code(unknown) == "task_not_found")
      let foreign = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [ids[0], theirs], done: true))
      #expect(foreign.status == .notFound)
      #expect(try code(foreign) == "task_not_found")
      let tooMany = (0...200).map { _ in UUID().uuidString }
      for body in [
        TaskBatchRequest(taskIds: [], done: true), TaskBatchRequest(taskIds: tooMany, done: true), TaskBatchRequest(taskIds: [ids[0]]),
        TaskBatchRequest(taskIds: [ids[0]], done: true, projectId: .set(shed.id)),
      ] {
        let refused = try await client.send(.POST, "/api/tasks/batch", json: body)
        #expect(refused.status == .badRequest)
        #expect(try code(refused) == "invalid_batch")
      }
      let movedNowhere = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [ids[0]], projectId: .set(UUID().uuidString)))
      #expect(movedNowhere.status == .notFound)
      #expect(try code(movedNowhere) == "project_not_found")
      // A misspelt field is refused, not ignored: read without it, this body would complete the task.
      let misspelt = try await client.send(.POST, "/api/tasks/batch", raw: #"{"taskIds": ["\#(ids[0])"], "done": true, "projectID": null}"#)
      #expect(misspelt.status == .badRequest)
      #expect(try code(misspelt) == "invalid_json")
      #expect(try client.decode(APIErrorBody.self, from: misspelt).message.hasSuffix("unknown field 'projectID'."))
      #expect(try await tasks(garden).allSatisfy { !$0.completed })
      #expect(try await tasks(nil).map(\.title) == ["Loose"])

      // Three completed in one request; another window's stream gets one update carrying all three.
      let stream = try await EventStreamReader(client)
      let snapshot = try await stream.next()
      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let body = TaskBatchRequest(taskIds: [ids[0], ids[1], loose], done: true)
      let first = try await client.send(.POST, "/api/tasks/batch", json: body, headers: key)
      #expect(first.status == .ok)
      let answer = try client.decode(TaskBatchResponse.self, from: first)
      #expect(Set(answer.tasks.map(\.id)) == Set([ids[0], ids[1], loose]) && answer.tasks.allSatisfy(\.completed))
      #expect(answer.projects.map(\.completed) == [2] && answer.inbox.completed == 1)
      let update = try await stream.next()
      #expect(!update.snapshot && update.revision == snapshot.revision + 1)
      #expect(update.projects.first { $0.id == garden.id }?.completed == 2 && update.inbox.completed == 1)
      try await stream.close()

      // A retry with the key answers as the first did and changes nothing more (a reopen in between stays).
      _ = try await Self.toggle(client, ids[0], false)
      let retry = try await client.send(.POST, "/api/tasks/batch", json: body, headers: key)
      #expect(retry.headers.first(name: "Idempotent-Replayed") == "true" && retry.body == first.body)
      #expect(try await tasks(garden).map(\.completed) == [false, true, false, false])
      let reused = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [ids[2]], done: true), headers: key)
      #expect(reused.status == .conflict)

      // Completing the last open ones finishes the project once.
      let finishing = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [ids[0], ids[2], ids[3]], done: true))
      let finished = try client.decode(TaskBatchResponse.self, from: finishing)
      #expect(finished.completion?.isFirst == true && finished.projects.first?.isComplete == true)

      // Move two to another project (to its end, in the order named), then one to the Inbox.
      let moved = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [ids[3], ids[1]], projectId: .set(shed.id)))
      let movedAnswer = try client.decode(TaskBatchResponse.self, from: moved)
      #expect(Set(movedAnswer.projects.map(\.id)) == [garden.id, shed.id])
      #expect(try await tasks(shed).map(\.title) == ["Weed", "Dig"])
      #expect(try await tasks(garden).map(\.title) == ["Seeds", "Water"])
      _ = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [ids[1]], projectId: .set(nil)))
      #expect(try await tasks(nil).map(\.title) == ["Loose", "Dig"])

      // The Swift client sends the same requests (its own guest, its own tasks).
      let api = CompletionClient(server: client.base)
      let kitchen = try await api.createProject(ProjectRequest(name: "Kitchen"))
      var mine: [String] = []
      for title in ["Paint", "Tiles"] { mine.append(try #require(try await api.createTask(TaskRequest(title: title)).task?.id)) }
      let doneByClient = try await api.setTasksDone(mine, true)
      #expect(doneByClient.tasks.count == 2 && doneByClient.inbox.completed == 2)
      let movedByClient = try await api.moveTasks(mine, toProject: kitchen.id)
      #expect(movedByClient.projects.first { $0.id == kitchen.id }?.total == 2 && movedByClient.inbox.total == 0)
      do {
        _ = try await api.setTasksDone([mine[0], ids[0]], false)  // ids[0] is not this person's
        Issue.record("a batch naming another person's task was accepted")
      } catch {
        let refusal = try #require(Mirror(reflecting: error).children.first { $0.label == "code" }?.value as? String)
        #expect(refusal == "task_not_found")
      }
      #expect(try await api.tasks(inProject: kitchen.id).tasks.allSatisfy(\.completed))
    }
  }

  @Test("A batch respects archived projects (all or none) and is not on the undo list: an earlier change of a task it changed since is refused as stale")
  func batchWithArchiveAndUndo() async throws {
    try await withTestApp { client, _ in
      let garden = try await Self.project(client)
      let shed = try await Self.project(client, "Shed")
      let seeds = try #require(try await Self.task(client, "Seeds", in: garden).task)
      let dig = try #require(try await Self.task(client, "Dig", in: garden).task)
      func code(_ response: TestResponse) throws -> String { try client.decode(APIErrorBody.self, from: response).code }
      func tasks() async throws -> [TaskView] {
        try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(garden.id)/tasks")).tasks
      }

      // Into an archived project: 409 project_archived, and neither task moves.
      #expect(try await client.send(.PATCH, "/api/projects/\(shed.id)", json: ProjectRequest(archived: true)).status == .ok)
      let refused = try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [seeds.id, dig.id], projectId: .set(shed.id)))
      #expect(refused.status == .conflict)
      #expect(try code(refused) == "project_archived")
      #expect(try await tasks().map(\.title) == ["Seeds", "Dig"])

      // A single edit of Seeds, then a batch completing both: the batch records no undo step, so undo reaches the
      // edit, made before the batch changed Seeds: it is refused as stale instead of reverting the batch.
      let renamed = try await client.send(.PATCH, "/api/tasks/\(seeds.id)", json: TaskRequest(title: "Sow seeds"))
      #expect(try client.decode(TaskChangeResponse.self, from: renamed).undo?.kind == "edited")
      #expect(try await client.send(.POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: [seeds.id, dig.id], done: true)).status == .ok)
      let stale = try await client.send(.POST, "/api/tasks/undo", contentType: nil)
      #expect(stale.status == .conflict)
      #expect(try code(stale) == "undo_stale")
      let after = try await tasks()
      #expect(after.map(\.title) == ["Sow seeds", "Dig"] && after.allSatisfy(\.completed))
    }
  }

  @Test("Archiving a project: it keeps its counts, is marked in the overview and live, takes no new task, and comes back")
  func archive() async throws {
    try await withTestApp { client, _ in
      let garden = try await Self.project(client)
      let dig = try #require(try await Self.task(client, "Dig", in: garden).task)
      _ = try await Self.task(client, "Sow", in: garden)
      _ = try await Self.toggle(client, dig.id, true)
      let stream = try await EventStreamReader(client)
      _ = try await stream.next()
      let response = try await client.send(.PATCH, "/api/projects/\(garden.id)", json: ProjectRequest(archived: true))
      let archived = try client.decode(ProjectView.self, from: response)
      #expect(archived.archived && archived.completed == 1 && archived.total == 2 && archived.percent == 50)
      #expect(try await stream.next().projects.first?.archived == true)
      try await stream.close()
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.map(\.archived) == [true])
      let refused = try await client.send(.POST, "/api/tasks", json: TaskRequest(title: "More", projectId: .set(garden.id)))
      #expect(refused.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: refused).code == "project_archived")
      // Its tasks still list and change; unarchived it takes tasks again.
      #expect(try await Self.toggle(client, dig.id, false).status == .ok)
      let back = try client.decode(ProjectView.self, from: try await client.send(.PATCH, "/api/projects/\(garden.id)", json: ProjectRequest(archived: false)))
      #expect(!back.archived && back.total == 2)
      _ = try await Self.task(client, "More", in: garden)
    }
  }

  @Test("Concurrent edits: each task carries a revision; an edit on an old one is 409 edit_conflict with the task as it is now; without one the last write wins")
  func editConflict() async throws {
    try await withTestApp { client, _ in
      let water = try #require(try await Self.task(client, "Water", in: nil).task)
      let first = try await client.send(.PATCH, "/api/tasks/\(water.id)", json: TaskRequest(title: "Water roses", baseRevision: water.revision))
      let saved = try #require(try client.decode(TaskChangeResponse.self, from: first).task)
      #expect(saved.revision > water.revision)
      let stale = try await client.send(.PATCH, "/api/tasks/\(water.id)", json: TaskRequest(title: "Water beds", baseRevision: water.revision))
      #expect(stale.status == .conflict)
      let conflict = try client.decode(TaskConflictBody.self, from: stale)
      #expect(conflict.code == "edit_conflict" && conflict.task.title == "Water roses" && conflict.task.revision == saved.revision)
      // Keep mine: sent again on the revision it was shown.
      let mine = try await client.send(.PATCH, "/api/tasks/\(water.id)", json: TaskRequest(title: "Water beds", baseRevision: conflict.task.revision))
      #expect(try client.decode(TaskChangeResponse.self, from: mine).task?.title == "Water beds")
      // An older client without a revision: the last write wins, as before.
      let old = try await client.send(.PATCH, "/api/tasks/\(water.id)", json: TaskRequest(title: "Water all"))
      #expect(old.status == .ok)
    }
  }

  @Test("Undo on the server: a change says what it did; an undo takes it back, reaches an open stream, and a retried undo undoes once")
  func undo() async throws {
    try await withTestApp { client, app in
      // Nothing yet (a visitor without a session too).
      let nothing = try await client.send(.POST, "/api/tasks/undo", contentType: nil)
      #expect(nothing.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: nothing).code == "nothing_to_undo")
      let garden = try await Self.project(client)
      let water = try #require(try await Self.task(client, "Water", in: garden).task)
      _ = try #require(try await Self.task(client, "Dig", in: garden).task)
      let done = try client.decode(TaskChangeResponse.self, from: try await Self.toggle(client, water.id, true))
      #expect(done.undo == UndoStepView(kind: "completed", taskId: water.id, label: "Completed “Water”", seq: done.undo?.seq))
      #expect((done.undo?.seq ?? 0) > 0)
      let deleted = try client.decode(TaskChangeResponse.self, from: try await client.send(.DELETE, "/api/tasks/\(water.id)"))
      #expect(deleted.undo?.label == "Deleted “Water”" && deleted.projects.first?.total == 1)

      // Another window of the same person sees the undo live.
      let stream = try await EventStreamReader(client)
      let snapshot = try await stream.next()
      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let first = try await client.send(.POST, "/api/tasks/undo", contentType: nil, headers: key)
      #expect(first.status == .ok)
      let undone = try client.decode(TaskChangeResponse.self, from: first)
      #expect(undone.undone?.label == "Deleted “Water”" && undone.undo == nil)
      #expect(undone.task?.id == water.id && undone.task?.completed == true && undone.task?.position == water.position)
      #expect(undone.projects.first.map { [$0.completed, $0.total] } == [1, 2])
      var update = try await stream.next()
      while update.revision < snapshot.revision + 1 { update = try await stream.next() }
      #expect(update.projects.first?.total == 2)
      try await stream.close()

      // The same key again: the first answer, and the completion below it is still there to undo.
      let replay = try await client.send(.POST, "/api/tasks/undo", contentType: nil, headers: key)
      #expect(replay.headers.first(name: "Idempotent-Replayed") == "true" && replay.body == first.body)
      let list = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(garden.id)/tasks"))
      #expect(list.tasks.first { $0.id == water.id }?.completed == true)
      let reopened = try client.decode(TaskChangeResponse.self, from: try await client.send(.POST, "/api/tasks/undo", contentType: nil))
      #expect(reopened.undone?.label == "Completed “Water”" && reopened.task?.completed == false)

      // A step whose project went since is refused, taken off, and its refusal replays to a retry.
      let shed = try await Self.project(client, "Shed")
      let paint = try #require(try await Self.task(client, "Paint", in: shed).task)
      _ = try await Self.toggle(client, paint.id, true)
      #expect(try await client.send(.DELETE, "/api/projects/\(shed.id)").status == .noContent)
      let staleKey: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let stale = try await client.send(.POST, "/api/tasks/undo", contentType: nil, headers: staleKey)
      #expect(stale.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: stale).code == "undo_stale")
      let staleAgain = try await client.send(.POST, "/api/tasks/undo", contentType: nil, headers: staleKey)
      #expect(staleAgain.status == .conflict && staleAgain.body == stale.body)
      // Next: the add of Paint (also gone with the project), then the add of Dig.
      #expect(try await client.send(.POST, "/api/tasks/undo", contentType: nil).status == .conflict)
      let dig = try client.decode(TaskChangeResponse.self, from: try await client.send(.POST, "/api/tasks/undo", contentType: nil))
      #expect(dig.undone?.label == "Added “Dig”" && dig.task == nil && dig.projects.first?.total == 1)
      try await Self.verify(app)
    }
  }

  @Test("Undo of the step a toast named: a later change refuses it (409 undo_moved_on, nothing undone), a double-click undoes once, and the live stream says which step is last")
  func undoNamedStep() async throws {
    try await withTestApp { client, app in
      let garden = try await Self.project(client)
      let target = try #require(try await Self.task(client, "Dbl target", in: garden).task)
      let ticked = try client.decode(TaskChangeResponse.self, from: try await Self.toggle(client, target.id, true))
      let tick = try #require(ticked.undo?.seq)
      // The add after it answers with its own step (the page's toast shows it in the tick's place).
      let added = try await Self.task(client, "Pack passport", in: garden)
      let pack = try #require(added.undo)
      #expect(pack.label == "Added “Pack passport”" && pack.kind == "added" && pack.seq == tick + 1)

      // Undo of the tick while the add is the last change: refused in plain words, nothing undone.
      let refused = try await client.send(.POST, "/api/tasks/undo", json: UndoRequest(step: tick))
      #expect(refused.status == .conflict)
      let body = try client.decode(APIErrorBody.self, from: refused)
      #expect(body.code == "undo_moved_on" && body.message.hasPrefix("Something else changed since"))
      func list() async throws -> [TaskView] {
        try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(garden.id)/tasks")).tasks
      }
      #expect(try await list().map { "\($0.title) \($0.completed)" } == ["Dbl target true", "Pack passport false"])

      // A double-click on the add's toast: two requests for one step (keys of their own), one undoes.
      let cookie = client.sessionCookie
      let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
        for _ in 0..<2 {
          group.addTask {
            let tab = client.stranger()
            tab.sessionCookie = cookie
            return try await tab.send(.POST, "/api/tasks/undo", json: UndoRequest(step: pack.seq), headers: ["Idempotency-Key": UUID().uuidString])
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(answers.map(\.status.code).sorted() == [200, 409])
      let second = try #require(answers.first { $0.status == .conflict })
      #expect(try client.decode(APIErrorBody.self, from: second).code == "undo_moved_on")
      #expect(try await list().map { "\($0.title) \($0.completed)" } == ["Dbl target true"])

      // A stream opened now says the tick is the last step; another window's change moves it on.
      let stream = try await EventStreamReader(client)
      let snapshot = try await stream.next()
      #expect(snapshot.undoSeq == tick)
      let other = try #require(try await Self.task(client, "Other window", in: garden).undo?.seq)
      var update = try await stream.next()
      while update.revision < other { update = try await stream.next() }
      #expect(update.undoSeq == other)
      try await stream.close()

      // Without a step (Ctrl+Z), the last change is taken back; a body that is not a step is refused.
      let last = try client.decode(TaskChangeResponse.self, from: try await client.send(.POST, "/api/tasks/undo", contentType: nil))
      #expect(last.undone?.label == "Added “Other window”" && last.undone?.seq == other)
      let bad = try await client.send(.POST, "/api/tasks/undo", raw: #"{"step": "last"}"#)
      let badCode = try client.decode(APIErrorBody.self, from: bad).code
      #expect(bad.status == .badRequest && badCode == "invalid_json")
      // A misspelt step is refused rather than read as "no step" (which would take back the last change).
      let misspelt = try await client.send(.POST, "/api/tasks/undo", raw: #"{"stpe": \#(tick)}"#)
      #expect(misspelt.status == .badRequest)
      #expect(try client.decode(APIErrorBody.self, from: misspelt).message.hasSuffix("unknown field 'stpe'."))
      let named = try client.decode(TaskChangeResponse.self, from: try await client.send(.POST, "/api/tasks/undo", json: UndoRequest(step: tick)))
      #expect(named.undone?.label == "Completed “Dbl target”" && named.task?.completed == false)
      try await Self.verify(app)
    }
  }

  @Test("An Idempotency-Key on a create: 20 at once make one project and one task, every answer the same; the key with other parameters is a conflict")
  func idempotentCreates() async throws {
    try await withTestApp { client, app in
      _ = try await Self.project(client, "Setup")
      let cookie = client.sessionCookie
      func burst(_ path: String, _ body: some Encodable & Sendable, key: String) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
          for _ in 0..<20 {
            group.addTask {
              let tab = client.stranger()
              tab.sessionCookie = cookie
              return try await tab.send(.POST, path, json: body, headers: ["Idempotency-Key": key])
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
      }
      let projectKey = UUID().uuidString
      let projects = try await burst("/api/projects", ProjectRequest(name: "Once"), key: projectKey)
      #expect(projects.map(\.status.code) == Array(repeating: 201, count: 20))
      #expect(Set(projects.map(\.body)).count == 1)
      let project = try client.decode(ProjectView.self, from: projects[0])
      var overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.filter { $0.name == "Once" }.count == 1)

      let taskKey = UUID().uuidString
      let tasks = try await burst("/api/tasks", TaskRequest(title: "Only once", projectId: .set(project.id)), key: taskKey)
      #expect(tasks.map(\.status.code) == Array(repeating: 201, count: 20))
      #expect(Set(tasks.map(\.body)).count == 1)
      let list = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(project.id)/tasks"))
      #expect(list.tasks.map(\.title) == ["Only once"] && list.project?.total == 1)

      // A later retry replays; the same key for another request is refused and changes nothing.
      let retry = try await client.send(.POST, "/api/tasks", json: TaskRequest(title: "Only once", projectId: .set(project.id)), headers: ["Idempotency-Key": taskKey])
      #expect(retry.status == .created && retry.headers.first(name: "Idempotent-Replayed") == "true" && retry.body == tasks[0].body)
      for (path, body) in [("/api/projects", ProjectRequest(name: "Other") as any Encodable), ("/api/tasks", TaskRequest(title: "Other") as any Encodable)] {
        let reused = try await client.send(.POST, path, json: body, headers: ["Idempotency-Key": path == "/api/projects" ? projectKey : taskKey])
        let code = try client.decode(APIErrorBody.self, from: reused).code
        #expect(reused.status == .conflict && code == "idempotency_key_reused")
      }
      // An import with a key imports once.
      let importKey: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let firstImport = try await client.send(.POST, "/api/projects/import", raw: "# Kitchen\n- Paint\n", contentType: "text/plain", headers: importKey)
      let again = try await client.send(.POST, "/api/projects/import", raw: "# Kitchen\n- Paint\n", contentType: "text/plain", headers: importKey)
      #expect(firstImport.status == .ok && again.body == firstImport.body && again.headers.first(name: "Idempotent-Replayed") == "true")
      overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.map(\.name) == ["Setup", "Once", "Kitchen"])
      try await Self.verify(app)
    }
  }

  @Test("The overview sends the labels and limits a page shows, as the server keeps them")
  func labelsAndLimits() async throws {
    try await withTestApp { client, _ in
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.colorLabels?.map(\.value) == overview.colors)
      #expect(overview.colorLabels?.first == LabelledValue(value: "red", label: "Red"))
      #expect(overview.priorities?.map(\.label) == ["None", "Low", "Medium", "High"])
      #expect(overview.limits == ProjectLimitsView(name: 120, title: 500, notes: 10_000, projects: 500, tasksPerImport: 5_000, search: 200, firstTaskPage: 100, tasksPerBatch: 200, defaultHeadingName: "Untitled Heading"))
      // The limit sent is the limit kept.
      let title = String(repeating: "x", count: try #require(overview.limits?.title))
      #expect(try await client.send(.POST, "/api/tasks", json: TaskRequest(title: title)).status == .created)
      #expect(try await client.send(.POST, "/api/tasks", json: TaskRequest(title: title + "x")).status == .badRequest)
    }
  }

  @Test("When a group runs its writes again (one did not land), every task change counts once and the finished project pays once")
  func groupRunAgain() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-projects-group-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    try await withTestApp(options: options) { client, app in
      let project = try await Self.project(client)
      var ids: [String] = []
      for i in 0..<12 { ids.append(try #require(try await Self.task(client, "T\(i)", in: project).task?.id)) }
      let cookie = client.sessionCookie
      let taskIDs = ids
      let runner = app.services.runner
      let db = app.db
      // Completions, new tasks and writes that never land, all at once: the groups they share run a second time.
      let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
        for index in 0..<36 {
          group.addTask {
            let tab = client.stranger()
            tab.sessionCookie = cookie
            switch index % 3 {
            case 0: return try await Self.toggle(tab, taskIDs[index / 3], true).status == .ok
            case 1:
              let created = try await tab.send(.POST, "/api/tasks", json: TaskRequest(title: "Inbox \(index)", completed: true))
              return created.status == .created
            default:
              var allLost = true
              for round in 0..<30 {
                let landed = try await runner.write(on: db) { db -> Int? in
                  try await User(displayName: "lost-\(index)-\(round)", isGuest: true).create(on: db)
                  return nil
                }
                allLost = allLost && landed == nil
              }
              return allLost
            }
          }
        }
        return try await group.reduce(into: [Bool]()) { $0.append($1) }
      }
      #expect(answers.allSatisfy { $0 })
      try await Self.verify(app)
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.projects.first?.completed == 12 && overview.projects.first?.isComplete == true)
      #expect(overview.inbox.total == 12 && overview.inbox.completed == 12)
      let user = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me")).id
      #expect(try await SQLLedgerStore(db).balance(of: user, in: "points") == 10)
      #expect(try await User.query(on: db).filter(\.$displayName ~~ "lost-").count() == 0)
    }
  }

  @Test("Live: a change made elsewhere reaches an open stream; a burst ends on the right value; a reconnect resumes")
  func liveStream() async throws {
    try await withTestApp { client, _ in
      let project = try await Self.project(client)
      var ids: [String] = []
      for i in 0..<10 { ids.append(try #require(try await Self.task(client, "T\(i)", in: project).task?.id)) }
      let stream = try await EventStreamReader(client)
      let snapshot = try await stream.next()
      #expect(snapshot.snapshot && snapshot.projects.map(\.total) == [10])

      // Another tab of the same person (the API with the same sign-in) completes a task.
      let tab = client.stranger()
      tab.sessionCookie = client.sessionCookie
      _ = try await Self.toggle(tab, ids[0], true)
      let update = try await stream.next()
      #expect(!update.snapshot && update.projects.first?.completed == 1 && update.revision > snapshot.revision)

      // A burst of completions: updates arrive coalesced and the last one says 10 of 10.
      try await withThrowingTaskGroup(of: Void.self) { group in
        for id in ids.dropFirst() { group.addTask { _ = try await Self.toggle(tab, id, true) } }
        try await group.waitForAll()
      }
      var last = try await stream.next()
      var messages = 1
      while last.projects.first?.completed != 10 {
        last = try await stream.next()
        messages += 1
      }
      #expect(messages < 9)  // joined, not one message a change
      #expect(last.projects.first?.isComplete == true)
      try await stream.close()

      // Reconnecting with the last revision seen: nothing missed, so no snapshot; with an older one, a snapshot.
      let resumed = try await EventStreamReader(client, lastEventID: snapshot.revision)
      let catchUp = try await resumed.next()
      #expect(catchUp.snapshot && catchUp.projects.first?.completed == 10)
      try await resumed.close()

      // A stranger's change never reaches this person's stream.
      let quiet = try await EventStreamReader(client, lastEventID: last.revision)
      let stranger = client.stranger()
      _ = try await Self.project(stranger, "Not yours")
      _ = try await Self.toggle(tab, ids[0], false)
      var next = try await quiet.next()
      // A message reads the revision a moment before its projects (never after: a reconnect can get a snapshot
      // it did not need, never miss a change), so the burst's last message may carry a revision just before
      // the burst's end and the reconnect first gets a snapshot that repeats it. On PostgreSQL a late
      // notification of the burst may also be sent again, with a revision the stranger's change has moved on.
      // All of them repeat what was seen (10 done); the first message that differs is the change.
      while next.projects.first?.completed == 10 {
        next = try await quiet.next()
      }
      #expect(!next.snapshot && next.projects.map(\.name) == ["Garden"] && next.projects.first?.completed == 9)
      try await quiet.close()
    }
  }

  @Test("The command line: login gives a token; tasks added and completed with it reach an open page live; bad names are refused kindly")
  func commandLineTasks() async throws {
    try await withTestApp { browser, _ in
      let name = uniqueUsername("cli")
      _ = try await browser.send(.GET, "/api/me")
      let registered = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
      #expect(registered.status == .created)
      let project = try await Self.project(browser, "Garden")
      _ = try await Self.task(browser, "Dig the bed", in: project)
      let stream = try await EventStreamReader(browser)
      let snapshot = try await stream.next()
      #expect(snapshot.projects.first?.total == 1)

      // `completionkit login`: a password sign-in, then a bearer token.
      let signIn = CompletionClient(server: browser.base)
      try await signIn.login(username: name, password: "correct horse")
      let token = try await signIn.createToken()
      let console = TaskConsole(client: CompletionClient(server: browser.base, credential: .bearer(token.token)))

      // `completionkit tasks add --project Garden "Sow the beans"`: the page's ring sees 2 tasks.
      let added = try await console.add("Sow the beans", project: "garden")
      #expect(added.contains("Sow the beans") && added.contains("Garden"))
      var update = try await stream.next()
      while update.projects.first?.total != 2 { update = try await stream.next() }
      #expect(update.projects.first?.completed == 0)

      // `completionkit tasks done "dig"` (a title's start) and then by short id: the ring closes.
      let first = try await console.setCompleted("dig", true)
      #expect(first.contains("Completed “Dig the bed”") && first.contains("50 %"))
      let listed = try await console.list(project: "Garden")
      #expect(listed.contains("Garden — 50 % (1 of 2 done)") && listed.contains("[x]") && listed.contains("[ ]"))
      let beans = try await console.find("Sow the beans")
      let last = try await console.setCompleted(TaskConsole.shortID(beans.task.id), true)
      #expect(last.contains("100 %") && last.contains("Project complete"))
      update = try await stream.next()
      while update.projects.first?.isComplete != true { update = try await stream.next() }
      #expect(update.projects.first?.percent == 100)
      // `completionkit tasks undo`: the last completion is taken back, and the page's ring follows.
      #expect(try await console.undo() == "Undone: Completed “Sow the beans”.")
      update = try await stream.next()
      while update.projects.first?.isComplete != false { update = try await stream.next() }
      #expect(update.projects.first?.percent == 50)
      _ = try await console.setCompleted(TaskConsole.shortID(beans.task.id), true)
      try await stream.close()

      // Names that pick out nothing, or too much, are refused with a message; nothing changes.
      await #expect(throws: TaskConsole.Problem.noTask("weed")) { try await console.setCompleted("weed", true) }
      await #expect(throws: TaskConsole.Problem.noProject("Kitchen")) { try await console.add("Knives", project: "Kitchen") }
      _ = try await console.add("Sow the peas", project: nil)
      await #expect(throws: TaskConsole.Problem.self) { try await console.setCompleted("sow", true) }
      // The server's refusals arrive as typed errors with the stable code.
      let stranger = TaskConsole(client: CompletionClient(server: browser.base, credential: .bearer("not-a-token")))
      do {
        _ = try await stranger.client.updateTask(beans.task.id, TaskRequest(completed: false))
        Issue.record("a made-up token changed a task")
      } catch let error as APIError {
        #expect(error.status == 404 || error.status == 401)
        #expect(!error.code.isEmpty)
      }
      let after = try await console.list(project: nil)
      #expect(after.contains("Garden — 100 % (2 of 2 done)"))
    }
  }

  @Test("Two server processes on one PostgreSQL: a change on one reaches a page connected to the other")
  func liveAcrossServers() async throws {
    let options = TestDatabase.options
    guard case .postgres = options.database else { return }  // SQLite runs one process; CI runs this on PostgreSQL
    try await withTestApp(options: options) { first, _ in
      try await withTestApp(options: options) { second, _ in
        let project = try await Self.project(first)
        let task = try #require(try await Self.task(first, "Across", in: project).task)
        second.sessionCookie = first.sessionCookie
        let stream = try await EventStreamReader(second)
        _ = try await stream.next()
        _ = try await Self.toggle(first, task.id, true)
        let update = try await stream.next()
        #expect(update.projects.first?.completed == 1)
        try await stream.close()
      }
    }
  }

  @Test("`completionkit projects verify`: clean, then a tampered count is reported and fails")
  func verifyCommand() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-projects-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    try await withTestApp(options: options) { client, _ in
      let project = try await Self.project(client)
      _ = try await Self.task(client, "One", in: project)
      _ = try await Self.task(client, "Inbox", in: nil)
    }
    let clean = try await Launcher.verifyProjects(options: options, logLevel: "error")
    #expect(clean.isClean && clean.lines == ["Project counts are consistent: 2 lists match a recount."])
    try await withTestApp(options: options) { _, app in
      let sql = try #require(app.db as? any SQLDatabase)
      try await sql.raw("UPDATE projects SET completed_count = 1").run()
    }
    let tampered = try await Launcher.verifyProjects(options: options, logLevel: "error")
    #expect(!tampered.isClean && tampered.lines.first?.hasSuffix("kept 1/1, counted 0/1") == true)
  }

  @Test("A list's tasks, and a change's task, are marked overdue as Today marks them, in the request's time zone")
  func overdueInLists() async throws {
    try await withTestApp { client, app in
      // 23:30 UTC on the 25th: already the 26th in Auckland, still the 25th in Los Angeles.
      app.services.clock.freeze()
      defer { app.services.clock.thaw() }
      app.services.clock.set(to: ISO8601DateFormatter().date(from: "2026-11-25T23:30:00Z")!)
      let garden = try await Self.project(client, "Garden")
      var ids: [String: String] = [:]
      for (title, due, project) in [("Plant bulbs", "2026-11-24", garden), ("Buy seeds", "2026-11-26", garden), ("Someday", nil, garden), ("Pay rent", "2026-11-25", nil)]
        as [(String, String?, ProjectView?)]
      {
        let response = try await client.send(
          .POST, "/api/tasks", json: TaskRequest(title: title, dueDate: due.map { .set($0) } ?? .unchanged, projectId: project.map { .set($0.id) } ?? .unchanged))
        ids[title] = try client.decode(TaskChangeResponse.self, from: response).task?.id
      }
      func marks(_ path: String, _ zone: String) async throws -> [String] {
        try client.decode(TaskListResponse.self, from: try await client.send(.GET, path, headers: ["Time-Zone": zone])).tasks
          .map { "\($0.title): \($0.due ?? "-") \($0.daysLate.map(String.init) ?? "-")" }
      }
      #expect(try await marks("/api/projects/\(garden.id)/tasks", "America/Los_Angeles") == ["Plant bulbs: overdue 1", "Buy seeds: upcoming -", "Someday: - -"])
      #expect(try await marks("/api/projects/\(garden.id)/tasks", "Pacific/Auckland") == ["Plant bulbs: overdue 2", "Buy seeds: today -", "Someday: - -"])
      #expect(try await marks("/api/projects/inbox/tasks", "Pacific/Auckland") == ["Pay rent: overdue 1"])
      // Without a zone: UTC, as Today.
      #expect(try await marks("/api/projects/inbox/tasks?limit=5", "UTC") == ["Pay rent: today -"])
      // A change answers with the task marked the same way; done, it is no longer overdue.
      let renamed = try client.decode(
        TaskChangeResponse.self,
        from: try await client.send(.PATCH, "/api/tasks/\(try #require(ids["Plant bulbs"]))", json: TaskRequest(title: "Plant tulips"), headers: ["Time-Zone": "Pacific/Auckland"]))
      #expect(renamed.task?.due == "overdue" && renamed.task?.daysLate == 2)
      let done = try client.decode(TaskChangeResponse.self, from: try await Self.toggle(client, try #require(ids["Plant bulbs"]), true, headers: ["Time-Zone": "Pacific/Auckland"]))
      #expect(done.task?.due != "overdue" && done.task?.daysLate == nil)
    }
  }

  @Test("Today, Upcoming and overdue follow the zone the page sends; search finds titles and notes in any case")
  func todayUpcomingAndSearch() async throws {
    try await withTestApp { client, app in
      // 23:30 UTC on the 25th: already the 26th in Auckland, still the 25th in Los Angeles.
      app.services.clock.freeze()
      defer { app.services.clock.thaw() }
      app.services.clock.set(to: ISO8601DateFormatter().date(from: "2026-11-25T23:30:00Z")!)
      let garden = try await Self.project(client, "Garden")
      for (title, due, project) in [
        ("Pay rent", "2026-11-25", nil), ("Plant bulbs", "2026-11-24", garden), ("Buy seeds", "2026-11-26", garden),
        ("Été party", "2026-11-30", nil), ("Someday", nil, garden),
      ] as [(String, String?, ProjectView?)] {
        let response = try await client.send(
          .POST, "/api/tasks",
          json: TaskRequest(title: title, notes: title == "Someday" ? "ask about the CAFÉ" : "", dueDate: due.map { .set($0) } ?? .unchanged,
            projectId: project.map { .set($0.id) } ?? .unchanged))
        #expect(response.status == .created)
      }
      func today(_ zone: String) async throws -> TodayResponse {
        try client.decode(TodayResponse.self, from: try await client.send(.GET, "/api/tasks/today?tz=\(zone)"))
      }
      let la = try await today("America/Los_Angeles")
      #expect(la.today == "2026-11-25" && la.overdue == 1)
      #expect(la.tasks.map(\.task.title) == ["Plant bulbs", "Pay rent"] && la.tasks.map(\.due) == ["overdue", "today"])
      #expect(la.tasks.first?.listName == "Garden" && la.tasks.first?.list == garden.id && la.tasks.last?.list == "inbox")
      let nz = try await today("Pacific/Auckland")
      #expect(nz.today == "2026-11-26" && nz.overdue == 2)
      #expect(nz.tasks.map(\.task.title) == ["Plant bulbs", "Pay rent", "Buy seeds"] && nz.tasks.map(\.daysLate) == [2, 1, 0])
      // The Time-Zone header works as ?tz= does; an unknown zone is refused with a code.
      let header = try client.decode(
        TodayResponse.self, from: try await client.send(.GET, "/api/tasks/today", headers: ["Time-Zone": "Pacific/Auckland"]))
      #expect(header.today == "2026-11-26")
      let bad = try await client.send(.GET, "/api/tasks/today?tz=Mars/Olympus")
      let badCode = try client.decode(APIErrorBody.self, from: bad).code
      #expect(bad.status == .badRequest && badCode == "invalid_time_zone")

      let upcoming = try client.decode(
        UpcomingResponse.self, from: try await client.send(.GET, "/api/tasks/upcoming?tz=America/Los_Angeles"))
      #expect(upcoming.days.map(\.date) == ["2026-11-26", "2026-11-30"] && upcoming.days.map(\.daysAhead) == [1, 5])
      #expect(upcoming.days.map { $0.tasks.map(\.task.title) } == [["Buy seeds"], ["Été party"]])

      func search(_ query: String) async throws -> TaskSearchResponse {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        return try client.decode(TaskSearchResponse.self, from: try await client.send(.GET, "/api/tasks/search?q=\(encoded)&tz=UTC"))
      }
      #expect(try await search("été").tasks.map(\.task.title) == ["Été party"])
      #expect(try await search("café").tasks.map(\.task.title) == ["Someday"])
      #expect(try await search("PLANT").tasks.map { [$0.task.title, $0.due ?? "", $0.listName] } == [["Plant bulbs", "overdue", "Garden"]])
      let empty = try await search("   ")
      #expect(empty.tasks.isEmpty && !empty.more)
      // Another person finds nothing of this one's.
      let stranger = client.stranger()
      let theirs = try stranger.decode(TaskSearchResponse.self, from: try await stranger.send(.GET, "/api/tasks/search?q=rent"))
      #expect(theirs.tasks.isEmpty)
      let tooLong = try await client.send(.GET, "/api/tasks/search?q=\(String(repeating: "a", count: 201))")
      #expect(tooLong.status == .badRequest)

      // Archiving Garden takes its tasks out of Today and Upcoming (search still finds them); unarchiving brings them back.
      #expect(try await client.send(.PATCH, "/api/projects/\(garden.id)", json: ProjectRequest(archived: true)).status == .ok)
      #expect(try await today("America/Los_Angeles").tasks.map(\.task.title) == ["Pay rent"])
      let shelved = try client.decode(
        UpcomingResponse.self, from: try await client.send(.GET, "/api/tasks/upcoming?tz=America/Los_Angeles"))
      #expect(shelved.days.map { $0.tasks.map(\.task.title) } == [["Été party"]])
      #expect(try await search("PLANT").tasks.map(\.task.title) == ["Plant bulbs"])
      #expect(try await client.send(.PATCH, "/api/projects/\(garden.id)", json: ProjectRequest(archived: false)).status == .ok)
      #expect(try await today("America/Los_Angeles").tasks.map(\.task.title) == ["Plant bulbs", "Pay rent"])
    }
  }

  @Test("Search on a big board answers at most its limit and says there are more")
  func searchIsBounded() async throws {
    try await withTestApp { client, _ in
      let lines = (0..<120).map { "Milk \($0)" }.joined(separator: "\n")
      let imported = try await client.send(.POST, "/api/projects/import", raw: lines, contentType: "text/plain")
      #expect(imported.status == .ok)
      let found = try client.decode(TaskSearchResponse.self, from: try await client.send(.GET, "/api/tasks/search?q=milk"))
      #expect(found.tasks.count == 50 && found.more)
    }
  }

  @Test("A long list in pages: the pages put together are the whole list, counts are the whole list's, a change between pages is refused")
  func pagedTaskList() async throws {
    try await withTestApp { client, _ in
      let name = uniqueUsername("pages")
      _ = try await client.send(.GET, "/api/me")
      #expect(try await client.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse")).status == .created)
      let lines = "# Long\n" + (0..<250).map { "Task \($0)" }.joined(separator: "\n")
      #expect(try await client.send(.POST, "/api/projects/import", raw: lines, contentType: "text/plain").status == .ok)
      let inboxLines = (0..<30).map { "Inbox \($0)" }.joined(separator: "\n")
      #expect(try await client.send(.POST, "/api/projects/import", raw: inboxLines, contentType: "text/plain").status == .ok)
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.limits?.firstTaskPage == 100)
      let long = try #require(overview.projects.first { $0.name == "Long" })
      let path = "/api/projects/\(long.id)/tasks"
      func read(_ query: String) async throws -> TaskListResponse {
        let response = try await client.send(.GET, path + query)
        #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
        return try client.decode(TaskListResponse.self, from: response)
      }

      // Without a limit: the whole list, as always, and no next page.
      let whole = try await read("")
      #expect(whole.tasks.count == 250 && whole.next == nil)
      // Pages of 100: 100, 100, 50; every page carries the whole list's counts.
      let first = try await read("?limit=100")
      #expect(first.tasks.count == 100 && first.project?.total == 250)
      let next = try #require(first.next)
      let second = try await read("?limit=100&after=\(next)")
      #expect(second.tasks.count == 100 && second.project?.total == 250)
      let third = try await read("?limit=100&after=\(try #require(second.next))")
      #expect(third.tasks.count == 50 && third.next == nil)
      #expect((first.tasks + second.tasks + third.tasks).map(\.id) == whole.tasks.map(\.id))
      // `after` without a limit: every task after the first page.
      let rest = try await read("?after=\(next)")
      #expect((first.tasks + rest.tasks).map(\.id) == whole.tasks.map(\.id) && rest.next == nil)
      // A list of exactly the limit has no next page.
      #expect(try await read("?limit=250").next == nil)

      // A change to the list after its first page was read: the next page is refused, not answered shifted.
      func code(_ response: TestResponse) throws -> String { try client.decode(APIErrorBody.self, from: response).code }
      #expect(try await Self.toggle(client, whole.tasks[0].id, true).status == .ok)
      let stale = try await client.send(.GET, path + "?after=\(next)")
      #expect(try stale.status == .conflict && code(stale) == "list_changed")
      let fresh = try await read("?limit=100")
      #expect(fresh.project?.completed == 1)
      #expect(try await read("?after=\(try #require(fresh.next))").tasks.count == 150)

      // The Inbox pages the same way (its revision is the person's); another person's cursor reads nothing of theirs.
      let inboxFirst = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/inbox/tasks?limit=20"))
      #expect(inboxFirst.tasks.count == 20 && inboxFirst.inbox?.total == 30)
      let inboxRest = try client.decode(
        TaskListResponse.self, from: try await client.send(.GET, "/api/projects/inbox/tasks?after=\(try #require(inboxFirst.next))"))
      #expect((inboxFirst.tasks + inboxRest.tasks).map(\.title) == (0..<30).map { "Inbox \($0)" })
      #expect(try await client.stranger().send(.GET, "/api/projects/\(long.id)/tasks?limit=10").status == .notFound)

      // Bad pages get their codes.
      for (query, expected) in [("?limit=0", "invalid_parameter"), ("?limit=10001", "invalid_parameter"), ("?limit=many", "invalid_parameter"),
        ("?after=nonsense", "invalid_cursor"), ("?after=1.-2", "invalid_cursor")] {
        let bad = try await client.send(.GET, path + query)
        #expect(try bad.status == .badRequest && code(bad) == expected, "\(query)")
      }

      // The Swift client reads the same pages (and the whole list without a limit, as the CLI does).
      let swift = CompletionClient(server: client.base)
      try await swift.login(username: name, password: "correct horse")
      let firstOfSwift = try await swift.tasks(inProject: long.id, limit: 100)
      let remaining = try await swift.tasks(inProject: long.id, after: try #require(firstOfSwift.next))
      #expect((firstOfSwift.tasks + remaining.tasks).map(\.id) == whole.tasks.map(\.id))
      #expect(try await swift.tasks(inProject: nil).tasks.count == 30)
      do {
        _ = try await swift.tasks(inProject: long.id, after: "999.100")
        Issue.record("a cursor of an older revision was answered")
      } catch let error as APIError {
        #expect(error.errorCode == .listChanged && error.status == 409)
      }
    }
  }

  @Test("An import preview reads the list as the import would, names every line it changes or refuses, and writes nothing")
  func importPreview() async throws {
    try await withTestApp { client, _ in
      let text = "- Milk\n# Work\n* [x] Pay rent\nCall\u{1B}[31m Bob\n1.5 kg flour"
      let response = try await client.send(.POST, "/api/projects/import/preview", raw: text, contentType: "text/plain")
      #expect(response.status == .ok)
      let preview = try client.decode(ProjectsImportPreview.self, from: response)
      #expect(preview.inbox == [ProjectsImportPreview.Task(title: "Milk", completed: false)])
      #expect(preview.projects.map(\.name) == ["Work"])
      #expect(preview.projects[0].tasks.map(\.title) == ["Pay rent", "Call [31m Bob", "1.5 kg flour"])
      #expect(preview.projects[0].tasks.map(\.completed) == [true, false, false])
      #expect(preview.projectsAdded == 1 && preview.tasksAdded == 4 && preview.refusal == nil)
      #expect(preview.lines.map { "\($0.line) \($0.kind)" } == ["1 marker_removed", "3 marker_removed", "3 done_mark_read", "4 control_characters_removed"])
      #expect(preview.lines.allSatisfy { !$0.refuses })
      // Nothing was written, and a visitor was not made a guest.
      #expect(client.sessionCookie == nil)
      let empty = try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/inbox/tasks"))
      #expect(empty.tasks.isEmpty)

      // Lines that stop the import are named with the rest, and the refusal is the import's own words.
      let bad = try client.decode(
        ProjectsImportPreview.self, from: try await client.send(.POST, "/api/projects/import/preview", raw: "ok\n#\n- ", contentType: "text/plain"))
      let detail = "Line 2: a heading needs a project name after “#”. Line 3: this line has a bullet but no task."
      #expect(bad.refusal == "This cannot be imported as it is: " + detail)
      #expect(bad.lines.filter(\.refuses).map { "\($0.line) \($0.kind)" } == ["2 empty_heading", "3 empty_task"])
      let refused = try await client.send(.POST, "/api/projects/import", raw: "ok\n#\n- ", contentType: "text/plain")
      #expect(try refused.status == .badRequest && client.decode(APIErrorBody.self, from: refused).message == "Nothing was imported: " + detail)

      // An export previews what it holds; JSON that is not one at all is refused as the import refuses it.
      let file = ProjectsExport(
        inbox: [.init(title: "From a file", notes: "", priority: "none", dueDate: nil, completed: true)],
        projects: [.init(name: "Filed", color: "green", notes: "", tasks: [])])
      let filed = try client.decode(ProjectsImportPreview.self, from: try await client.send(.POST, "/api/projects/import/preview", json: file))
      #expect(filed.inbox == [.init(title: "From a file", completed: true)] && filed.projects == [.init(name: "Filed", tasks: [])])
      #expect(filed.lines.isEmpty && filed.refusal == nil)
      let notAFile = try await client.send(.POST, "/api/projects/import/preview", raw: "{\"hello\": 1}")
      #expect(notAFile.status == .badRequest)
      #expect(try client.decode(APIErrorBody.self, from: notAFile).code == "invalid_import")

      // Importing the text previewed adds what the preview said; the Swift client previews the same.
      let imported = try client.decode(
        ProjectsImportResult.self, from: try await client.send(.POST, "/api/projects/import", raw: text, contentType: "text/plain"))
      #expect(imported.projectsAdded == preview.projectsAdded && imported.tasksAdded == preview.tasksAdded)
      #expect(try await CompletionClient(server: client.base).previewImport(plainList: text) == preview)
      #expect(try await CompletionClient(server: client.base).previewImport(file) == filed)
    }
  }
}
