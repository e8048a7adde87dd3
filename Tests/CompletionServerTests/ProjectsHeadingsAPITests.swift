import CompletionAPI
import CompletionClient
import Foundation
import Testing
import Vapor

@testable import CompletionServer

/// Headings inside a project over real HTTP: the routes, their refusals, the task list's order and pages, live
/// updates, and the Swift client's methods.
@Suite("Projects API: headings")
struct ProjectsHeadingsAPITests {
  static func code(_ client: TestClient, _ response: TestResponse) throws -> String {
    try client.decode(APIErrorBody.self, from: response).code
  }

  static func list(_ client: TestClient, _ project: ProjectView, query: String = "") async throws -> TaskListResponse {
    try client.decode(TaskListResponse.self, from: try await client.send(.GET, "/api/projects/\(project.id)/tasks\(query)"))
  }

  @Test("A heading added with a proposed id keeps it (a client names it before the answer); a clash is 409 heading_id_taken")
  func proposedHeadingID() async throws {
    try await withTestApp { client, app in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let proposed = UUID().uuidString.lowercased()
      let add = { (id: String, key: String) in
        try await client.send(
          .POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(id: id), headers: ["Idempotency-Key": key])
      }
      // Kept as proposed (the server's spelling of a UUID), with the default name.
      let key = UUID().uuidString
      let created = try await add(proposed, key)
      #expect(created.status == .created)
      let heading = try #require(try client.decode(HeadingsResponse.self, from: created).heading)
      #expect(heading.id == proposed.uppercased() && heading.name == ProjectLimitsView.current.defaultHeadingName)
      // A retry after a lost answer, as an offline page sends it again: the first answer, one heading.
      let again = try await add(proposed, key)
      #expect(again.status == .created && again.headers.first(name: "Idempotent-Replayed") == "true" && again.body == created.body)
      // Tasks put under it by that id land there; so does a rename and a delete by it, each once with its key.
      let task = try #require(try await ProjectsAPITests.task(client, "Sow", in: garden).task)
      let moved = try client.decode(
        TaskChangeResponse.self, from: try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(headingId: .set(proposed))))
      #expect(moved.task?.headingId == heading.id)
      let renameKey: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let renamed = try await client.send(
        .PATCH, "/api/projects/\(garden.id)/headings/\(proposed)", json: HeadingRequest(name: "Spring", baseName: heading.name), headers: renameKey)
      #expect(try client.decode(HeadingsResponse.self, from: renamed).heading?.name == "Spring")
      let renamedAgain = try await client.send(
        .PATCH, "/api/projects/\(garden.id)/headings/\(proposed)", json: HeadingRequest(name: "Spring", baseName: heading.name), headers: renameKey)
      #expect(renamedAgain.headers.first(name: "Idempotent-Replayed") == "true" && renamedAgain.body == renamed.body)

      // The same id again under another key (or in another project, or by another person) is refused, nothing added.
      var response = try await add(proposed, UUID().uuidString)
      #expect(response.status == .conflict)
      #expect(try Self.code(client, response) == "heading_id_taken")
      let shed = try await ProjectsAPITests.project(client, "Shed")
      response = try await client.send(.POST, "/api/projects/\(shed.id)/headings", json: HeadingRequest(id: proposed))
      #expect(response.status == .conflict)
      #expect(try Self.code(client, response) == "heading_id_taken")
      let stranger = client.stranger()
      let theirs = try await ProjectsAPITests.project(stranger, "Theirs")
      response = try await stranger.send(.POST, "/api/projects/\(theirs.id)/headings", json: HeadingRequest(id: proposed))
      #expect(response.status == .conflict)
      #expect(try Self.code(stranger, response) == "heading_id_taken")
      #expect(try await Self.list(stranger, theirs).headings.isEmpty)
      response = try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(id: "not-a-uuid"))
      #expect(response.status == .badRequest)
      #expect(try Self.code(client, response) == "invalid_id")
      #expect(try await Self.list(client, garden).headings.map(\.id) == [heading.id])
      #expect(try await Self.list(client, shed).headings.isEmpty)

      // A delete retried with its key answers as the first did, not heading_not_found.
      let deleteKey: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let deleted = try await client.send(.DELETE, "/api/projects/\(garden.id)/headings/\(proposed)", headers: deleteKey)
      #expect(deleted.status == .ok)
      let deletedAgain = try await client.send(.DELETE, "/api/projects/\(garden.id)/headings/\(proposed)", headers: deleteKey)
      #expect(deletedAgain.status == .ok && deletedAgain.body == deleted.body)
      #expect(try await Self.list(client, garden).tasks.map(\.headingId) == [nil])
      try await ProjectsAPITests.verify(app)
    }
  }

  @Test("Headings are added, renamed, reordered and deleted; tasks go under them and the list comes grouped; counts never move")
  func headingsEndToEnd() async throws {
    try await withTestApp { client, app in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      var tasks: [TaskView] = []
      for title in ["Seeds", "Dig", "Water", "Rake"] { tasks.append(try #require(try await ProjectsAPITests.task(client, title, in: garden).task)) }
      _ = try await ProjectsAPITests.toggle(client, tasks[1].id, true)
      let countsBefore = try await Self.list(client, garden).project.map { [$0.completed, $0.total] }

      // Add: 201, the heading at the end, control characters out; an Idempotency-Key replays the first answer.
      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let created = try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: " Spring\u{1B}[31m "), headers: key)
      #expect(created.status == .created)
      let spring = try #require(try client.decode(HeadingsResponse.self, from: created).heading)
      #expect(spring.name == "Spring [31m" && spring.projectId == garden.id)
      let replay = try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: " Spring\u{1B}[31m "), headers: key)
      #expect(replay.headers.first(name: "Idempotent-Replayed") == "true" && replay.body == created.body)
      let autumnAnswer = try client.decode(
        HeadingsResponse.self, from: try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: "Autumn")))
      let autumn = try #require(autumnAnswer.heading)
      #expect(autumnAnswer.headings.map(\.name) == ["Spring [31m", "Autumn"])
      #expect(autumnAnswer.project.revision > garden.revision && [autumnAnswer.project.completed, autumnAnswer.project.total] == countsBefore)

      // Tasks under headings: the view carries the heading, the list comes grouped, its headings with it.
      for (task, heading) in [(tasks[0], autumn), (tasks[2], spring), (tasks[3], autumn)] {
        let moved = try client.decode(
          TaskChangeResponse.self, from: try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(headingId: .set(heading.id))))
        #expect(moved.task?.headingId == heading.id)
      }
      var list = try await Self.list(client, garden)
      #expect(list.tasks.map(\.title) == ["Dig", "Water", "Seeds", "Rake"])
      #expect(list.headings.map(\.id) == [spring.id, autumn.id])
      #expect(list.tasks.map(\.headingId) == [nil, spring.id, autumn.id, autumn.id])
      #expect(list.project.map { [$0.completed, $0.total] } == countsBefore)
      // Pages of the grouped list put together are the list; each carries the headings.
      let first = try await Self.list(client, garden, query: "?limit=3")
      let rest = try await Self.list(client, garden, query: "?limit=3&after=\(try #require(first.next))")
      #expect((first.tasks + rest.tasks).map(\.id) == list.tasks.map(\.id) && rest.headings == list.headings)

      // Rename and move in one request; past the end means last.
      let edited = try client.decode(
        HeadingsResponse.self,
        from: try await client.send(.PATCH, "/api/projects/\(garden.id)/headings/\(autumn.id)", json: HeadingRequest(name: "Fall", position: 0)))
      #expect(edited.headings.map(\.name) == ["Fall", "Spring [31m"] && edited.heading?.name == "Fall")
      list = try await Self.list(client, garden)
      #expect(list.tasks.map(\.title) == ["Dig", "Seeds", "Rake", "Water"])
      let last = try client.decode(
        HeadingsResponse.self, from: try await client.send(.PATCH, "/api/projects/\(garden.id)/headings/\(autumn.id)", json: HeadingRequest(position: 9)))
      #expect(last.headings.map(\.id) == [spring.id, autumn.id])

      // Refusals with stable codes.
      let shed = try await ProjectsAPITests.project(client, "Shed")
      let tools = try #require(
        try client.decode(HeadingsResponse.self, from: try await client.send(.POST, "/api/projects/\(shed.id)/headings", json: HeadingRequest(name: "Tools"))).heading)
      var response = try await client.send(.PATCH, "/api/tasks/\(tasks[1].id)", json: TaskRequest(headingId: .set(tools.id)))
      #expect(response.status == .badRequest)
      #expect(try Self.code(client, response) == "heading_in_other_project")
      response = try await client.send(.PATCH, "/api/tasks/\(tasks[1].id)", json: TaskRequest(headingId: .set(UUID().uuidString)))
      #expect(response.status == .notFound)
      #expect(try Self.code(client, response) == "heading_not_found")
      response = try await client.send(.PATCH, "/api/projects/\(garden.id)/headings/\(tools.id)", json: HeadingRequest(name: "x"))
      #expect(response.status == .notFound)
      #expect(try Self.code(client, response) == "heading_not_found")
      response = try await client.send(.PATCH, "/api/projects/\(garden.id)/headings/nope", json: HeadingRequest(name: "x"))
      #expect(try Self.code(client, response) == "invalid_id")
      response = try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: String(repeating: "h", count: 121)))
      #expect(try Self.code(client, response) == "too_long")
      response = try await client.send(.POST, "/api/projects/\(UUID().uuidString)/headings", json: HeadingRequest(name: "x"))
      #expect(response.status == .notFound)
      #expect(try Self.code(client, response) == "project_not_found")
      // Another person finds nothing of these.
      let other = client.stranger()
      _ = try await ProjectsAPITests.project(other, "Theirs")
      #expect(try await other.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: "x")).status == .notFound)
      #expect(try await other.send(.DELETE, "/api/projects/\(garden.id)/headings/\(spring.id)").status == .notFound)
      #expect(try await other.send(.PATCH, "/api/projects/\(garden.id)/headings/\(spring.id)", json: HeadingRequest(name: "x")).status == .notFound)

      // A new task can go straight under a heading of its project, not under another project's.
      let sharpened = try client.decode(
        TaskChangeResponse.self,
        from: try await client.send(.POST, "/api/tasks", json: TaskRequest(title: "Sharpen", projectId: .set(shed.id), headingId: .set(tools.id))))
      #expect(sharpened.task?.headingId == tools.id && sharpened.projects.first?.total == 1)
      response = try await client.send(.POST, "/api/tasks", json: TaskRequest(title: "x", projectId: .set(garden.id), headingId: .set(tools.id)))
      #expect(try Self.code(client, response) == "heading_in_other_project")
      response = try await client.send(.POST, "/api/tasks", json: TaskRequest(title: "x", headingId: .set(tools.id)))
      #expect(try Self.code(client, response) == "heading_in_other_project")

      // Moving a task to another project clears its heading.
      let movedAway = try client.decode(
        TaskChangeResponse.self, from: try await client.send(.PATCH, "/api/tasks/\(tasks[3].id)", json: TaskRequest(projectId: .set(shed.id))))
      #expect(movedAway.task?.projectId == shed.id && movedAway.task?.headingId == nil)

      // Deleting a heading keeps its tasks in the project, under none; the counts stay.
      let deleted = try await client.send(.DELETE, "/api/projects/\(garden.id)/headings/\(spring.id)")
      #expect(deleted.status == .ok)
      let afterDelete = try client.decode(HeadingsResponse.self, from: deleted)
      #expect(afterDelete.heading == nil && afterDelete.headings.map(\.id) == [autumn.id])
      list = try await Self.list(client, garden)
      #expect(list.tasks.first { $0.id == tasks[2].id }?.headingId == nil)
      #expect(list.tasks.map(\.title) == ["Dig", "Water", "Seeds"])
      #expect(try await client.send(.DELETE, "/api/projects/\(garden.id)/headings/\(spring.id)").status == .notFound)
      try await ProjectsAPITests.verify(app)
    }
  }

  @Test("A heading renamed in two windows: the rename made on the older name is refused with the heading as it is now, and nothing is overwritten")
  func renameConflict() async throws {
    try await withTestApp { client, _ in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let created = try client.decode(
        HeadingsResponse.self, from: try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: "Documents")))
      let heading = try #require(created.heading)
      let path = "/api/projects/\(garden.id)/headings/\(heading.id)"
      let first = try await client.send(.PATCH, path, json: HeadingRequest(name: "Papers", baseName: "Documents"))
      #expect(first.status == .ok)
      let second = try await client.send(.PATCH, path, json: HeadingRequest(name: "Tickets", baseName: "Documents"))
      #expect(second.status == .conflict)
      let conflict = try client.decode(HeadingConflictBody.self, from: second)
      #expect(conflict.code == "heading_conflict" && conflict.heading.name == "Papers" && conflict.message.contains("“Papers”"))
      #expect(try await Self.list(client, garden).headings.map(\.name) == ["Papers"])
      // Keep mine: on the saved name it goes through; a client that sends no base keeps last-rename-wins.
      let kept = try client.decode(HeadingsResponse.self, from: try await client.send(.PATCH, path, json: HeadingRequest(name: "Tickets", baseName: "Papers")))
      #expect(kept.heading?.name == "Tickets")
      #expect(try await client.send(.PATCH, path, json: HeadingRequest(name: "Travel")).status == .ok)
      #expect(try await Self.list(client, garden).headings.map(\.name) == ["Travel"])
    }
  }

  @Test("A heading added in one window reaches another's live stream (the project's revision moves, so the page reads its list again)")
  func live() async throws {
    try await withTestApp { client, _ in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let stream = try await EventStreamReader(client)
      let snapshot = try await stream.next()
      let knownRevision = snapshot.projects.first { $0.id == garden.id }?.revision ?? 0
      _ = try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: "Spring"))
      var update = try await stream.next()
      while update.revision < snapshot.revision + 1 { update = try await stream.next() }
      let changed = update.projects.first { $0.id == garden.id }
      #expect((changed?.revision ?? 0) > knownRevision && changed?.total == 0)
      try await stream.close()
      #expect(try await Self.list(client, garden).headings.map(\.name) == ["Spring"])
    }
  }

  @Test("Export keeps headings and which tasks are under them; importing the file brings them back; a task naming a heading its project lacks refuses the file")
  func exportAndImport() async throws {
    try await withTestApp { client, _ in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let seeds = try #require(try await ProjectsAPITests.task(client, "Seeds", in: garden).task)
      _ = try await ProjectsAPITests.task(client, "Dig", in: garden)
      let spring = try #require(
        try client.decode(HeadingsResponse.self, from: try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: "Spring"))).heading)
      _ = try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: "Empty"))
      _ = try await client.send(.PATCH, "/api/tasks/\(seeds.id)", json: TaskRequest(headingId: .set(spring.id)))
      let file = try client.decode(ProjectsExport.self, from: try await client.send(.GET, "/api/projects/export"))
      let exported = try #require(file.projects.first)
      #expect(exported.headings == ["Spring", "Empty"])
      #expect(exported.tasks.map(\.title) == ["Dig", "Seeds"] && exported.tasks.map(\.heading) == [nil, 0])

      // Into a fresh account: the same headings, the same task under the same one.
      let other = client.stranger()
      #expect(try await other.send(.POST, "/api/projects/import", json: file).status == .ok)
      let again = try other.decode(ProjectsExport.self, from: try await other.send(.GET, "/api/projects/export"))
      #expect(again == file)

      // A task naming a heading its project does not have, or an Inbox task with one: the whole file is refused.
      let bad = ProjectsExport(
        inbox: [ProjectsExport.Task(title: "Loose", notes: "", priority: "none", dueDate: nil, completed: false, heading: 0)],
        projects: [
          ProjectsExport.Project(
            name: "Shed", color: "gray", notes: "", tasks: [ProjectsExport.Task(title: "Oil", notes: "", priority: "none", dueDate: nil, completed: false, heading: 1)],
            headings: ["Tools"])
        ])
      let refused = try await other.send(.POST, "/api/projects/import", json: bad)
      #expect(refused.status == .badRequest)
      #expect(try Self.code(other, refused) == "invalid_import")
      let message = try other.decode(APIErrorBody.self, from: refused).message
      #expect(message.contains("Inbox task 1") && message.contains("Project 1, task 1: heading 1"), "\(message)")
      #expect(try other.decode(ProjectsExport.self, from: try await other.send(.GET, "/api/projects/export")).projects.count == 1)
    }
  }

  @Test("A batch moves several tasks under a heading at once, all or none; every heading is listed for the move; the Swift client does both")
  func batchUnderHeading() async throws {
    try await withTestApp { client, _ in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let shed = try await ProjectsAPITests.project(client, "Shed")
      let seeds = try #require(try await ProjectsAPITests.task(client, "Seeds", in: garden).task)
      let rake = try #require(try await ProjectsAPITests.task(client, "Rake", in: shed).task)
      let loose = try #require(try await ProjectsAPITests.task(client, "Loose", in: nil).task)
      func heading(_ project: ProjectView, _ name: String) async throws -> HeadingView {
        let created = try await client.send(.POST, "/api/projects/\(project.id)/headings", json: HeadingRequest(name: name))
        return try #require(try client.decode(HeadingsResponse.self, from: created).heading)
      }
      let spring = try await heading(garden, "Spring")
      let tools = try await heading(shed, "Tools")
      let autumn = try await heading(garden, "Autumn")

      // Every heading, by project in the projects' order, then in each project's order.
      let all = try client.decode(HeadingListResponse.self, from: try await client.send(.GET, "/api/projects/headings"))
      #expect(all.headings.map(\.id) == [spring.id, autumn.id, tools.id])

      // Refusals, with nothing moved: another project's heading, one that is not there, one with the Inbox, one
      // without a project or with done; a task that is not there refuses the others too.
      let ids = [rake.id, loose.id, seeds.id]
      let refusals: [(TaskBatchRequest, HTTPStatus, String)] = [
        (TaskBatchRequest(taskIds: ids, projectId: .set(garden.id), headingId: tools.id), .badRequest, "heading_in_other_project"),
        (TaskBatchRequest(taskIds: ids, projectId: .set(garden.id), headingId: UUID().uuidString), .notFound, "heading_not_found"),
        (TaskBatchRequest(taskIds: ids, projectId: .set(nil), headingId: spring.id), .badRequest, "heading_in_other_project"),
        (TaskBatchRequest(taskIds: ids, headingId: spring.id), .badRequest, "invalid_batch"),
        (TaskBatchRequest(taskIds: ids, done: true, headingId: spring.id), .badRequest, "invalid_batch"),
        (TaskBatchRequest(taskIds: ids + [UUID().uuidString], projectId: .set(garden.id), headingId: spring.id), .notFound, "task_not_found"),
      ]
      for (body, status, code) in refusals {
        let refused = try await client.send(.POST, "/api/tasks/batch", json: body)
        #expect(try refused.status == status && Self.code(client, refused) == code, "\(body)")
      }
      #expect(try await Self.list(client, garden).tasks.map(\.headingId) == [nil])
      #expect(try await Self.list(client, shed).tasks.map(\.title) == ["Rake"])

      // All three under Autumn, in the order named: counts move once per list, nothing goes on the undo list.
      let moved = try await client.send(
        .POST, "/api/tasks/batch", json: TaskBatchRequest(taskIds: ids, projectId: .set(garden.id), headingId: autumn.id))
      #expect(moved.status == .ok)
      let answer = try client.decode(TaskBatchResponse.self, from: moved)
      #expect(answer.tasks.map(\.id) == ids && answer.tasks.allSatisfy { $0.headingId == autumn.id && $0.projectId == garden.id })
      #expect(answer.projects.first { $0.id == garden.id }?.total == 3 && answer.projects.first { $0.id == shed.id }?.total == 0)
      #expect(answer.inbox.total == 0)
      let list = try await Self.list(client, garden)
      #expect(list.tasks.map(\.title) == ["Rake", "Loose", "Seeds"] && list.tasks.allSatisfy { $0.headingId == autumn.id })

      // The Swift client: every heading, and a move under one.
      let api = CompletionClient(server: client.base)
      let kitchen = try await api.createProject(ProjectRequest(name: "Kitchen"))
      let shelf = try #require(try await api.createHeading(inProject: kitchen.id, name: "Shelf").heading)
      #expect(try await api.allHeadings().map(\.id) == [shelf.id])
      var mine: [String] = []
      for title in ["Paint", "Tiles"] { mine.append(try #require(try await api.createTask(TaskRequest(title: title)).task?.id)) }
      let byClient = try await api.moveTasks(mine, toProject: kitchen.id, heading: shelf.id)
      #expect(byClient.tasks.map(\.headingId) == [shelf.id, shelf.id])
      do {
        _ = try await api.moveTasks(mine, toProject: kitchen.id, heading: spring.id)  // not this person's
        Issue.record("another person's heading was accepted")
      } catch let error as APIError {
        #expect(error.errorCode == .headingNotFound)
      }
    }
  }

  @Test("Adding, renaming and deleting a heading are undone by POST /api/tasks/undo: a deletion comes back at its place with its tasks, live in another window")
  func undoHeadings() async throws {
    try await withTestApp { client, _ in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      var headings: [HeadingView] = []
      for name in ["Spring", "Summer", "Autumn"] {
        let created = try client.decode(
          HeadingsResponse.self, from: try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: name)))
        #expect(created.undo?.kind == "heading_added" && created.undo?.headingId == created.heading?.id && created.undo?.taskId == nil)
        headings.append(try #require(created.heading))
      }
      var tasks: [TaskView] = []
      for title in ["Seeds", "Dig", "Rake"] { tasks.append(try #require(try await ProjectsAPITests.task(client, title, in: garden).task)) }
      for task in tasks.prefix(2) {
        _ = try await client.send(.PATCH, "/api/tasks/\(task.id)", json: TaskRequest(headingId: .set(headings[1].id)))
      }
      let before = try await Self.list(client, garden)
      let stream = try await EventStreamReader(client)
      _ = try await stream.next()

      // Delete Summer: the answer offers its undo; the undo brings it back in the middle with both tasks.
      let deleted = try client.decode(
        HeadingsResponse.self, from: try await client.send(.DELETE, "/api/projects/\(garden.id)/headings/\(headings[1].id)"))
      #expect(
        deleted.undo
          == UndoStepView(
            kind: "heading_deleted", taskId: nil, headingId: headings[1].id, projectId: garden.id, label: "Deleted heading “Summer”",
            seq: deleted.undo?.seq) && deleted.undo?.seq != nil)
      _ = try await stream.next()
      let undone = try await client.send(.POST, "/api/tasks/undo", contentType: nil, headers: ["Idempotency-Key": UUID().uuidString])
      #expect(undone.status == .ok)
      let answer = try client.decode(TaskChangeResponse.self, from: undone)
      #expect(answer.undone?.kind == "heading_deleted" && answer.undone?.headingId == headings[1].id && answer.task == nil)
      #expect(answer.projects.map(\.id) == [garden.id])
      // Another window hears of it: the project's revision moved, so it reads the list again.
      let update = try await stream.next()
      #expect(update.projects.first { $0.id == garden.id }?.revision == answer.projects.first?.revision)
      let after = try await Self.list(client, garden)
      #expect(after.headings.map(\.id) == before.headings.map(\.id) && after.tasks.map(\.id) == before.tasks.map(\.id))
      #expect(after.tasks.map(\.headingId) == [nil, headings[1].id, headings[1].id])
      try await stream.close()

      // Rename, then undo: the old name.
      let renamed = try client.decode(
        HeadingsResponse.self,
        from: try await client.send(.PATCH, "/api/projects/\(garden.id)/headings/\(headings[2].id)", json: HeadingRequest(name: "Fall")))
      #expect(renamed.undo?.label == "Renamed heading “Autumn” to “Fall”")
      let unrenamed = try client.decode(TaskChangeResponse.self, from: try await client.send(.POST, "/api/tasks/undo", contentType: nil))
      #expect(unrenamed.undone?.kind == "heading_renamed")
      #expect(try await Self.list(client, garden).headings.map(\.name) == ["Spring", "Summer", "Autumn"])
      // A new place alone is not on the undo list: the next undo takes back the task moved under Summer.
      let placed = try client.decode(
        HeadingsResponse.self,
        from: try await client.send(.PATCH, "/api/projects/\(garden.id)/headings/\(headings[2].id)", json: HeadingRequest(position: 0)))
      #expect(placed.undo == nil)
      let next = try client.decode(TaskChangeResponse.self, from: try await client.send(.POST, "/api/tasks/undo", contentType: nil))
      #expect(next.undone?.taskId == tasks[1].id && next.undone?.kind == "moved")

      // Undo of an add: the heading goes. A deleted project makes a heading's step stale.
      let winter = try #require(
        try client.decode(
          HeadingsResponse.self, from: try await client.send(.POST, "/api/projects/\(garden.id)/headings", json: HeadingRequest(name: "Winter"))
        ).heading)
      _ = try await client.send(.POST, "/api/tasks/undo", contentType: nil)
      #expect(!(try await Self.list(client, garden).headings.map(\.id).contains(winter.id)))
      _ = try await client.send(.PATCH, "/api/projects/\(garden.id)/headings/\(headings[0].id)", json: HeadingRequest(name: "Early"))
      #expect(try await client.send(.DELETE, "/api/projects/\(garden.id)").status == .noContent)
      let stale = try await client.send(.POST, "/api/tasks/undo", contentType: nil)
      #expect(try stale.status == .conflict && Self.code(client, stale) == "undo_stale")
    }
  }

  @Test("The Swift client: a typed method for each heading route and for putting a task under one")
  func swiftClient() async throws {
    try await withTestApp { client, _ in
      let api = CompletionClient(server: client.base)
      let garden = try await api.createProject(ProjectRequest(name: "Garden"))
      let task = try #require(try await api.createTask(TaskRequest(title: "Seeds", projectId: .set(garden.id))).task)
      let spring = try #require(try await api.createHeading(inProject: garden.id, name: "Spring").heading)
      let summer = try #require(try await api.createHeading(inProject: garden.id).heading)
      #expect(summer.name == "Untitled Heading")
      // With an id of the client's choosing (one in use is refused).
      let chosen = UUID().uuidString
      #expect(try await api.createHeading(inProject: garden.id, name: "Chosen", id: chosen).heading?.id == chosen)
      do {
        _ = try await api.createHeading(inProject: garden.id, id: chosen)
        Issue.record("a heading id in use was accepted")
      } catch let error as APIError {
        #expect(error.errorCode == .headingIDTaken)
      }
      _ = try await api.deleteHeading(chosen, inProject: garden.id)
      let renamed = try await api.updateHeading(summer.id, inProject: garden.id, name: "Summer", position: 0)
      #expect(renamed.headings.map(\.name) == ["Summer", "Spring"])
      do {
        _ = try await api.updateHeading(summer.id, inProject: garden.id, name: "Autumn", baseName: "Untitled Heading")
        Issue.record("a rename on a name the heading no longer has was accepted")
      } catch let error as APIError {
        #expect(error.errorCode == .headingConflict)
      }
      #expect(try await api.setHeading(ofTask: task.id, to: spring.id).task?.headingId == spring.id)
      #expect(try await api.tasks(inProject: garden.id).tasks.first?.headingId == spring.id)
      do {
        _ = try await api.setHeading(ofTask: task.id, to: UUID().uuidString)
        Issue.record("a heading that is not there was accepted")
      } catch let error as APIError {
        #expect(error.errorCode == .headingNotFound)
      }
      // The command line shows the tasks under their headings.
      let listed = try await TaskConsole(client: api).list(project: "Garden")
      #expect(listed.hasSuffix("\n  Summer\n      (no tasks)\n  Spring\n    [ ] \(TaskConsole.shortID(task.id))  Seeds"), "\(listed)")
      let gone = try await api.deleteHeading(spring.id, inProject: garden.id)
      #expect(gone.headings.map(\.id) == [summer.id])
      #expect(try await api.tasks(inProject: garden.id).tasks.map(\.headingId) == [nil])
    }
  }
}
