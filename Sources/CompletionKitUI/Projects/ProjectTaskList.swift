#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// The open list's tasks (a project's or the Inbox's) in the server's order: a project's tasks under no
/// heading first, then each of its headings as a section with the tasks under it (a heading without tasks
/// says so). The grouping is the server's (``ProjectsModel/sections``); a tap completes or reopens a task there.
public struct ProjectTaskList: View {
  let model: ProjectsModel

  /// A list showing `model`'s open list (open one with ``ProjectsModel/open(_:)``).
  public init(model: ProjectsModel) {
    self.model = model
  }

  public var body: some View {
    List {
      ForEach(model.sections) { section in
        if let heading = section.heading {
          Section {
            rows(section)
          } header: {
            Text(verbatim: heading.name).accessibilityAddTraits(.isHeader)
          }
        } else {
          Section { rows(section) }
        }
      }
    }
    .navigationTitle(model.openProject?.name ?? "Inbox")
  }

  @ViewBuilder private func rows(_ section: TaskSection) -> some View {
    if section.tasks.isEmpty {
      Text(section.heading == nil ? "No tasks" : "No tasks under this heading").foregroundStyle(.secondary)
    } else {
      ForEach(section.tasks, id: \.id) { task in row(task) }
    }
  }

  private func row(_ task: TaskView) -> some View {
    Button {
      Task { await model.setCompleted(task.id, !task.completed) }
    } label: {
      HStack {
        Image(systemName: task.completed ? "checkmark.circle.fill" : "circle")
        Text(verbatim: task.title).foregroundStyle(task.completed ? Color.secondary : Color.primary)
      }
    }
    .accessibilityValue(task.completed ? "Done" : "Not done")
  }
}
#endif
