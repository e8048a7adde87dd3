// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "CompletionKit",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "CompletionCore", targets: ["CompletionCore"]),
    .library(name: "Cryptogram", targets: ["Cryptogram"]),
    .library(name: "KidsGame", targets: ["KidsGame"]),
    .library(name: "Projects", targets: ["Projects"]),
    .library(name: "Challenges", targets: ["Challenges"]),
    .library(name: "Imaging", targets: ["Imaging"]),
    .library(name: "CompletionClient", targets: ["CompletionClient"]),
    .library(name: "CompletionAPI", targets: ["CompletionAPI"]),
    .library(name: "StreamingJSON", targets: ["StreamingJSON"]),
    .library(name: "CompletionServer", targets: ["CompletionServer"]),
    .library(name: "CompletionKitUI", targets: ["CompletionKitUI"]),
    .executable(name: "completionkit", targets: ["completionkit"]),
    .executable(name: "completionkit-bench", targets: ["completionkit-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/vapor/vapor.git", from: "4.122.0"),
    .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
    .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
    .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
  ],
  targets: [
    // Pure Swift, Foundation only: motion, progress, rewards, sessions, randomness.
    .target(name: "CompletionCore"),
    // The cryptogram game's rules and its quote library (seed 000). Pure: no IO beyond reading its bundled quotes.
    .target(name: "Cryptogram", dependencies: ["CompletionCore"], resources: [.copy("Resources/quotes.json")]),
    // The kids' learning game "Waldabenteuer" (seed 001): navigation, coins, activities, parent rules. Pure.
    .target(name: "KidsGame", dependencies: ["CompletionCore"]),
    // Projects and tasks with a live completion ring (seed 003): counts, import, the ring's motion. Pure.
    .target(name: "Projects", dependencies: ["CompletionCore"]),
    // Cooking challenges with photo proof, points, streaks and a feed (seed 004): catalogue, rules, feed
    // merge, moderation. Pure.
    .target(name: "Challenges", dependencies: ["CompletionCore"], resources: [.copy("Resources/catalogue.json")]),
    // libjpeg-turbo, libpng, libwebp, FreeType and zlib from the system (Debian: libjpeg62-turbo-dev, libpng-dev,
    // libwebp-dev, libfreetype-dev, zlib1g-dev); libjpeg's setjmp error handling stays inside C.
    .systemLibrary(
      name: "CImaging", path: "Sources/CImaging", pkgConfig: "freetype2",
      providers: [.apt(["libjpeg62-turbo-dev", "libpng-dev", "libfreetype-dev", "zlib1g-dev"])]),
    // Photos and share cards: decode JPEG/PNG/WebP by their bytes, turn upright, resize, re-encode without
    // metadata, and draw the 4:5 card with FreeType text.
    .target(name: "Imaging", dependencies: ["CImaging"]),
    // A JSON encoder that writes while it encodes (no boxed tree): every API response goes through it.
    .target(name: "StreamingJSON"),
    // One SQLite setting Swift cannot reach (a C function with a variable argument list): plans that do not
    // depend on bound values, so the group-commit writer's kept statements stay prepared.
    .target(name: "CSQLitePlans"),
    // Codable request/response types shared by the server, the tests and any Swift client.
    .target(name: "CompletionAPI", dependencies: ["CompletionCore", "Cryptogram", "KidsGame", "Projects", "Challenges", "StreamingJSON"]),
    // Vapor + Fluent: routes, models, migrations, auth, static web client.
    .target(
      name: "CompletionServer",
      dependencies: [
        "CompletionCore",
        "Cryptogram",
        "KidsGame",
        "Projects",
        "Challenges",
        "CompletionAPI",
        "StreamingJSON",
        "Imaging",
        "CSQLitePlans",
        .product(name: "Vapor", package: "vapor"),
        .product(name: "Fluent", package: "fluent"),
        .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
        .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      // The passwords no account may use (see the file's header for where they come from).
      resources: [.copy("Accounts/Resources/common-passwords.txt")]
    ),
    // The Swift client, Linux and Apple: a typed method per API operation, the @Observable models of every
    // screen (no game rule: they send events and show what the server computed), the terminal cryptogram.
    .target(
      name: "CompletionClient",
      dependencies: ["CompletionAPI", "CompletionCore", "Cryptogram", .product(name: "AsyncHTTPClient", package: "async-http-client")]),
    // SwiftUI views over CompletionClient's models, for Apple platforms; every file is wrapped in
    // `#if canImport(SwiftUI)`, so on Linux the target is empty (CI type-checks it against Tests/SwiftUIStub).
    .target(name: "CompletionKitUI", dependencies: ["CompletionClient", "CompletionAPI", "CompletionCore", "Projects"]),
    .executableTarget(
      name: "completionkit",
      dependencies: [
        "CompletionServer",
        "CompletionClient",
        "CompletionAPI",
        "Cryptogram",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Benchmarks (not tests): budgets from the issues, figures in docs/PERFORMANCE.md.
    .target(name: "CAllocationCounter"),
    .executableTarget(
      name: "completionkit-bench",
      dependencies: [
        "CompletionCore", "CAllocationCounter", "Cryptogram", "KidsGame", "CompletionAPI", "CompletionServer", "StreamingJSON",
        .product(name: "Vapor", package: "vapor"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]
    ),
    .testTarget(
      name: "CompletionCoreTests",
      dependencies: [
        "CompletionCore",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "CryptogramTests",
      dependencies: [
        "Cryptogram",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "KidsGameTests",
      dependencies: [
        "KidsGame",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "ProjectsTests",
      dependencies: [
        "Projects",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "ChallengesTests",
      dependencies: [
        "Challenges",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "ImagingTests", dependencies: ["Imaging"], exclude: ["Fixtures/make-gps-photo.py"],
      resources: [.copy("Fixtures/gps-photo.jpg")]),
    .testTarget(
      name: "StreamingJSONTests",
      dependencies: ["StreamingJSON", "CompletionAPI", "CompletionCore", "Cryptogram", "KidsGame", .product(name: "Vapor", package: "vapor")]
    ),
    .testTarget(
      name: "CompletionServerTests",
      dependencies: [
        "CompletionServer",
        "CompletionAPI",
        "CompletionClient",
        .product(name: "VaporTesting", package: "vapor"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
