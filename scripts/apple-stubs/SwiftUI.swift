// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of SwiftUI for scripts/apple-typecheck: only what Lookahead and its examples call, from Apple's
// documented declarations, in their iOS 18 / macOS 15 SDK isolation (View and App are @MainActor; modifiers are
// nonisolated; Button's action is a main-actor closure). Signatures keep the documented labels and types, without
// the parameters our code never passes. Modifiers return `some View` instead of SwiftUI's concrete wrapper types.
// Bodies never run.
@_exported import Combine
@_exported import CoreGraphics
@_exported import Foundation
#if canImport(UIKit)
@_exported import UIKit
#else
@_exported import AppKit
#endif

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public nonisolated var body: Never { fatalError() }
}

/// What primitive views and modifiers are: views with no body of their own.
public protocol _PrimitiveView: View where Body == Never {}
extension _PrimitiveView {
    public nonisolated var body: Never { fatalError() }
}

public struct EmptyView: _PrimitiveView {
    public nonisolated init() {}
}

public struct TupleView<T>: _PrimitiveView {
    public nonisolated init(_ value: T) {}
}

public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public nonisolated var body: Never { fatalError() }
}

public struct _ModifiedView<Content: View>: _PrimitiveView {
    nonisolated init() {}
}

@resultBuilder public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { fatalError() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
        (repeat each Content)
    > { fatalError() }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { fatalError() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { fatalError() }
}

public struct Animation: Equatable, Sendable {
    public static let `default` = Animation()
    public static func easeIn(duration: TimeInterval) -> Animation { fatalError() }
    public static func easeInOut(duration: TimeInterval) -> Animation { fatalError() }
}

@MainActor public func withAnimation<Result>(
    _ animation: Animation? = .default,
    _ body: () throws -> Result
) rethrows -> Result { fatalError() }

public enum ContentMode: Hashable, Sendable {
    case fit, fill
}

public struct Alignment: Equatable, Sendable {
    public static let center = Alignment()
}

extension View {
    public nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View { _ModifiedView<Self>() }
    public nonisolated func onDisappear(perform action: (() -> Void)? = nil) -> some View { _ModifiedView<Self>() }
    public nonisolated func id<ID: Hashable>(_ id: ID) -> some View { _ModifiedView<Self>() }
    public nonisolated func task(
        priority: TaskPriority = .userInitiated,
        _ action: @escaping @Sendable () async -> Void
    ) -> some View { _ModifiedView<Self>() }
    public nonisolated func task<T: Equatable>(
        id value: T,
        priority: TaskPriority = .userInitiated,
        _ action: @escaping @Sendable () async -> Void
    ) -> some View { _ModifiedView<Self>() }
    public nonisolated func refreshable(action: @escaping @Sendable () async -> Void) -> some View {
        _ModifiedView<Self>()
    }
    public nonisolated func overlay<V: View>(
        alignment: Alignment = .center,
        @ViewBuilder content: () -> V
    ) -> some View { _ModifiedView<Self>() }
    public nonisolated func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View {
        _ModifiedView<Self>()
    }
    public nonisolated func scaledToFill() -> some View { _ModifiedView<Self>() }
    public nonisolated func scaledToFit() -> some View { _ModifiedView<Self>() }
    public nonisolated func clipped(antialiased: Bool = false) -> some View { _ModifiedView<Self>() }
    public nonisolated func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View { _ModifiedView<Self>() }
    public nonisolated func navigationTitle<S: StringProtocol>(_ title: S) -> some View { _ModifiedView<Self>() }
}

public struct Image: _PrimitiveView, Equatable, Sendable {
    #if canImport(UIKit)
    public nonisolated init(uiImage: UIImage) { fatalError() }
    #else
    public nonisolated init(nsImage: NSImage) { fatalError() }
    #endif
    public nonisolated init(systemName: String) { fatalError() }
    public nonisolated func resizable() -> Image { fatalError() }
}

public struct Text: _PrimitiveView, Equatable, Sendable {
    public nonisolated init<S: StringProtocol>(_ content: S) { fatalError() }
}

public struct Color: _PrimitiveView, Hashable, Sendable {
    public static let clear = Color()
    public static let gray = Color()
    public nonisolated func opacity(_ opacity: Double) -> Color { fatalError() }
}

public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {
    public nonisolated init() where Label == EmptyView, CurrentValueLabel == EmptyView { fatalError() }
    public nonisolated init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0)
    where Label == EmptyView, CurrentValueLabel == EmptyView { fatalError() }
}

public struct Button<Label: View>: _PrimitiveView {
    public nonisolated init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        fatalError()
    }
    public nonisolated init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void)
    where Label == Text { fatalError() }
}

public struct NavigationLink<Label: View, Destination: View>: _PrimitiveView {
    public nonisolated init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {
        fatalError()
    }
}

public struct NavigationStack<Root: View>: _PrimitiveView {
    public nonisolated init(@ViewBuilder root: () -> Root) { fatalError() }
}

public struct ScrollView<Content: View>: _PrimitiveView {
    public nonisolated init(@ViewBuilder content: () -> Content) { fatalError() }
}

public struct GridItem: Sendable {
    public enum Size: Sendable {
        case fixed(CGFloat)
        case flexible(minimum: CGFloat = 10, maximum: CGFloat = .infinity)
        case adaptive(minimum: CGFloat, maximum: CGFloat = .infinity)
    }
    public init(_ size: GridItem.Size = .flexible(), spacing: CGFloat? = nil) { fatalError() }
}

public struct LazyVGrid<Content: View>: _PrimitiveView {
    public nonisolated init(columns: [GridItem], spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        fatalError()
    }
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: _PrimitiveView {
    public nonisolated init(
        _ data: Data,
        id: KeyPath<Data.Element, ID>,
        @ViewBuilder content: @escaping (Data.Element) -> Content
    ) { fatalError() }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public nonisolated init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) { fatalError() }
}

/// A property SwiftUI updates before it draws a view's body.
public protocol DynamicProperty {}

@propertyWrapper @MainActor @preconcurrency
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { fatalError() }
    public var wrappedValue: ObjectType { fatalError() }
}

@propertyWrapper @MainActor @preconcurrency
public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
}

@MainActor @preconcurrency public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Body { get }
}

@resultBuilder public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

public struct WindowGroup<Content: View>: Scene {
    public nonisolated init(@ViewBuilder content: () -> Content) { fatalError() }
    public nonisolated var body: Never { fatalError() }
}

extension Never: Scene {}

@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    @MainActor @preconcurrency public static func main() { fatalError() }
}
