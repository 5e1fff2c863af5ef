// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of Combine for scripts/apple-typecheck: only what Lookahead and its examples call, from Apple's
// documented declarations (Publisher, ObservableObject, Published). Bodies never run.

public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
}

public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    public init() {}
    public func send() { fatalError() }
}

public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    public var objectWillChange: ObservableObjectPublisher { fatalError() }
}

@propertyWrapper
public struct Published<Value> {
    public init(wrappedValue: Value) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }
}
