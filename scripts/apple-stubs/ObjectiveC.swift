// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of ObjectiveC for scripts/apple-typecheck: only what Lookahead calls, from Apple's documented
// declarations (Objective-C Runtime, "Associated Objects"). Bodies never run.

/// Policies of an associated object.
public enum objc_AssociationPolicy: UInt, Sendable {
    case OBJC_ASSOCIATION_ASSIGN = 0
    case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
    case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    case OBJC_ASSOCIATION_RETAIN = 769
    case OBJC_ASSOCIATION_COPY = 771
}

public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? { fatalError() }

public func objc_setAssociatedObject(
    _ object: Any,
    _ key: UnsafeRawPointer,
    _ value: Any?,
    _ policy: objc_AssociationPolicy
) { fatalError() }
