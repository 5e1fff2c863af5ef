// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of UIKit (iOS) for scripts/apple-typecheck: only what Lookahead and its examples call, from Apple's
// documented declarations. As in the iOS SDK, views are @MainActor and UIImage and UIColor are Sendable. Protocol
// methods that UIKit marks optional are plain requirements here (no Objective-C on Linux). Bodies never run.
@_exported import Foundation
@_exported import QuartzCore

open class UIImage: NSObject, @unchecked Sendable {
    public override init() { fatalError() }
    public init(cgImage: CGImage) { fatalError() }
    public init(cgImage: CGImage, scale: CGFloat, orientation: UIImage.Orientation) { fatalError() }
    open var cgImage: CGImage? { fatalError() }
    open var size: CGSize { fatalError() }
    open var scale: CGFloat { fatalError() }
    open var images: [UIImage]? { fatalError() }
    open var duration: TimeInterval { fatalError() }
    open class func animatedImage(with images: [UIImage], duration: TimeInterval) -> UIImage? { fatalError() }

    public enum Orientation: Int, Sendable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }
}

open class UIColor: NSObject, @unchecked Sendable {
    open class var secondarySystemBackground: UIColor { fatalError() }
}

extension IndexPath {
    public init(row: Int, section: Int) { fatalError() }
    public init(item: Int, section: Int) { fatalError() }
    public var section: Int { fatalError() }
    public var row: Int { fatalError() }
    public var item: Int { fatalError() }
}

public struct UIEdgeInsets: Sendable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat
}

@MainActor open class UIResponder: NSObject {}

@MainActor open class UIApplication: UIResponder {
    nonisolated public static let didReceiveMemoryWarningNotification = NSNotification.Name(
        "UIApplicationDidReceiveMemoryWarningNotification"
    )
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name(
        "UIApplicationDidEnterBackgroundNotification"
    )
}

@MainActor open class UIView: UIResponder {
    public init(frame: CGRect) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    public override convenience init() { self.init(frame: .zero) }

    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    }

    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill
    }

    open class func transition(
        with view: UIView,
        duration: TimeInterval,
        options: UIView.AnimationOptions = [],
        animations: (() -> Void)?,
        completion: ((Bool) -> Void)? = nil
    ) { fatalError() }

    open var layer: CALayer { fatalError() }
    open var backgroundColor: UIColor? {
        get { fatalError() }
        set { fatalError() }
    }
    open var contentMode: UIView.ContentMode {
        get { fatalError() }
        set { fatalError() }
    }
    open var clipsToBounds: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    open var translatesAutoresizingMaskIntoConstraints: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    open func addSubview(_ view: UIView) { fatalError() }
    open func removeFromSuperview() { fatalError() }
    open var layoutMarginsGuide: UILayoutGuide { fatalError() }
    open var leadingAnchor: NSLayoutXAxisAnchor { fatalError() }
    open var trailingAnchor: NSLayoutXAxisAnchor { fatalError() }
    open var centerXAnchor: NSLayoutXAxisAnchor { fatalError() }
    open var centerYAnchor: NSLayoutYAxisAnchor { fatalError() }
    open var topAnchor: NSLayoutYAxisAnchor { fatalError() }
    open var bottomAnchor: NSLayoutYAxisAnchor { fatalError() }
    open var widthAnchor: NSLayoutDimension { fatalError() }
    open var heightAnchor: NSLayoutDimension { fatalError() }
}

@MainActor open class UILayoutGuide: NSObject {
    open var leadingAnchor: NSLayoutXAxisAnchor { fatalError() }
    open var trailingAnchor: NSLayoutXAxisAnchor { fatalError() }
}

@MainActor open class NSLayoutConstraint: NSObject {
    open class func activate(_ constraints: [NSLayoutConstraint]) { fatalError() }
    public enum Axis: Int, Sendable {
        case horizontal, vertical
    }
}

@MainActor open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint { fatalError() }
}
@MainActor open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}
@MainActor open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}
@MainActor open class NSLayoutDimension: NSLayoutAnchor<NSLayoutDimension> {
    open func constraint(equalToConstant c: CGFloat) -> NSLayoutConstraint { fatalError() }
}

@MainActor open class UIImageView: UIView {
    open var image: UIImage? {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor open class UIControl: UIView {
    public convenience init(frame: CGRect, primaryAction: UIAction?) { fatalError() }
    public struct State: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
    }
}

@MainActor open class UIAction: NSObject {
    public convenience init(handler: @escaping @MainActor (UIAction) -> Void) { fatalError() }
}

@MainActor open class UIRefreshControl: UIControl {
    open func endRefreshing() { fatalError() }
}

@MainActor open class UIButton: UIControl {
    open func setImage(_ image: UIImage?, for state: UIControl.State) { fatalError() }
}

@MainActor open class UILabel: UIView {
    open var text: String? {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor open class UIStackView: UIView {
    public convenience init(arrangedSubviews views: [UIView]) { fatalError() }
    open var axis: NSLayoutConstraint.Axis {
        get { fatalError() }
        set { fatalError() }
    }
    open var spacing: CGFloat {
        get { fatalError() }
        set { fatalError() }
    }
    open var alignment: UIStackView.Alignment {
        get { fatalError() }
        set { fatalError() }
    }
    public enum Alignment: Int, Sendable {
        case fill, leading, firstBaseline, center, trailing, lastBaseline
    }
}

@MainActor open class UIActivityIndicatorView: UIView {
    public enum Style: Int, Sendable {
        case medium = 100
        case large = 101
    }
    public convenience init(style: UIActivityIndicatorView.Style) { fatalError() }
    open func startAnimating() { fatalError() }
    open func stopAnimating() { fatalError() }
}

@MainActor open class UIScrollView: UIView {
    open var contentOffset: CGPoint {
        get { fatalError() }
        set { fatalError() }
    }
    open var adjustedContentInset: UIEdgeInsets { fatalError() }
    open var isDecelerating: Bool { fatalError() }
    open var refreshControl: UIRefreshControl? {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor public protocol UIScrollViewDelegate: NSObjectProtocol {
    func scrollViewDidScroll(_ scrollView: UIScrollView)
}

@MainActor open class UITableViewCell: UIView {
    public enum CellStyle: Int, Sendable {
        case `default`, value1, value2, subtitle
    }
    public init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open var contentView: UIView { fatalError() }
}

@MainActor open class UITableView: UIScrollView {
    open var indexPathsForVisibleRows: [IndexPath]? { fatalError() }
    open func rectForRow(at indexPath: IndexPath) -> CGRect { fatalError() }
    open var rowHeight: CGFloat {
        get { fatalError() }
        set { fatalError() }
    }
    open weak var prefetchDataSource: (any UITableViewDataSourcePrefetching)? {
        get { fatalError() }
        set { fatalError() }
    }
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) { fatalError() }
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        fatalError()
    }
}

@MainActor open class UICollectionViewLayout: NSObject {}

@MainActor open class UICollectionReusableView: UIView {}

@MainActor open class UICollectionViewCell: UICollectionReusableView {
    open var contentView: UIView { fatalError() }
}

@MainActor open class UICollectionView: UIScrollView {
    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
    open weak var delegate: (any UICollectionViewDelegate)? {
        get { fatalError() }
        set { fatalError() }
    }

    public struct CellRegistration<Cell: UICollectionViewCell, Item> {
        public typealias Handler = @MainActor (Cell, IndexPath, Item) -> Void
        public init(handler: @escaping Handler) { fatalError() }
    }

    public struct SupplementaryRegistration<Supplementary: UICollectionReusableView> {
        public typealias Handler = @MainActor (Supplementary, String, IndexPath) -> Void
        public init(elementKind: String, handler: @escaping Handler) { fatalError() }
    }

    open func dequeueConfiguredReusableCell<Cell: UICollectionViewCell, Item>(
        using registration: UICollectionView.CellRegistration<Cell, Item>,
        for indexPath: IndexPath,
        item: Item?
    ) -> Cell { fatalError() }
    open func dequeueConfiguredReusableSupplementary<Supplementary: UICollectionReusableView>(
        using registration: UICollectionView.SupplementaryRegistration<Supplementary>,
        for indexPath: IndexPath
    ) -> Supplementary { fatalError() }
    open var indexPathsForVisibleItems: [IndexPath] { fatalError() }
    open weak var prefetchDataSource: (any UICollectionViewDataSourcePrefetching)? {
        get { fatalError() }
        set { fatalError() }
    }
}

public struct NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>: Sendable
where SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable {
    public init() { fatalError() }
    public var sectionIdentifiers: [SectionIdentifierType] { fatalError() }
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] { fatalError() }
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) { fatalError() }
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil) {
        fatalError()
    }
}

@MainActor open class UITableViewDiffableDataSource<SectionIdentifierType, ItemIdentifierType>: NSObject
where SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable {
    public typealias CellProvider = (UITableView, IndexPath, ItemIdentifierType) -> UITableViewCell?
    public init(tableView: UITableView, cellProvider: @escaping CellProvider) { fatalError() }
    open func apply(
        _ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
        animatingDifferences: Bool = true
    ) { fatalError() }
    open func snapshot() -> NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType> { fatalError() }
    open func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? { fatalError() }
}

@MainActor open class UICollectionViewDiffableDataSource<SectionIdentifierType, ItemIdentifierType>: NSObject
where SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable {
    public typealias CellProvider = (UICollectionView, IndexPath, ItemIdentifierType) -> UICollectionViewCell?
    public typealias SupplementaryViewProvider = (UICollectionView, String, IndexPath) -> UICollectionReusableView?
    public init(collectionView: UICollectionView, cellProvider: @escaping CellProvider) { fatalError() }
    open var supplementaryViewProvider: SupplementaryViewProvider? {
        get { fatalError() }
        set { fatalError() }
    }
    open func apply(
        _ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
        animatingDifferences: Bool = true
    ) { fatalError() }
    open func snapshot() -> NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType> { fatalError() }
    open func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? { fatalError() }
    open func sectionIdentifier(for index: Int) -> SectionIdentifierType? { fatalError() }
}

/// The methods the examples implement; UIKit's are all optional.
@MainActor public protocol UICollectionViewDelegate: UIScrollViewDelegate {
    func collectionView(
        _ collectionView: UICollectionView,
        willDisplay cell: UICollectionViewCell,
        forItemAt indexPath: IndexPath
    )
    func collectionView(
        _ collectionView: UICollectionView,
        didEndDisplaying cell: UICollectionViewCell,
        forItemAt indexPath: IndexPath
    )
}

@MainActor open class NSCollectionLayoutDimension: NSObject {
    open class func fractionalWidth(_ fractionalWidth: CGFloat) -> Self { fatalError() }
    open class func fractionalHeight(_ fractionalHeight: CGFloat) -> Self { fatalError() }
    open class func absolute(_ absoluteDimension: CGFloat) -> Self { fatalError() }
    open class func estimated(_ estimatedDimension: CGFloat) -> Self { fatalError() }
}

@MainActor open class NSCollectionLayoutSize: NSObject {
    public convenience init(
        widthDimension width: NSCollectionLayoutDimension,
        heightDimension height: NSCollectionLayoutDimension
    ) { fatalError() }
}

@MainActor open class NSCollectionLayoutItem: NSObject {
    public convenience init(layoutSize: NSCollectionLayoutSize) { fatalError() }
}

@MainActor open class NSCollectionLayoutGroup: NSCollectionLayoutItem {
    open class func horizontal(layoutSize: NSCollectionLayoutSize, subitems: [NSCollectionLayoutItem]) -> Self {
        fatalError()
    }
}

public enum NSRectAlignment: Int, Sendable {
    case none, top, topLeading, leading, bottomLeading, bottom, bottomTrailing, trailing, topTrailing
}

@MainActor open class NSCollectionLayoutBoundarySupplementaryItem: NSCollectionLayoutItem {
    public convenience init(layoutSize: NSCollectionLayoutSize, elementKind: String, alignment: NSRectAlignment) {
        fatalError()
    }
}

@MainActor open class NSCollectionLayoutSection: NSObject {
    public convenience init(group: NSCollectionLayoutGroup) { fatalError() }
    open var boundarySupplementaryItems: [NSCollectionLayoutBoundarySupplementaryItem] {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor open class UICollectionViewCompositionalLayout: UICollectionViewLayout {
    public init(section: NSCollectionLayoutSection) { fatalError() }
}

@MainActor public protocol UITableViewDataSourcePrefetching: NSObjectProtocol {
    func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath])
    func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath])
}

@MainActor public protocol UICollectionViewDataSourcePrefetching: NSObjectProtocol {
    func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath])
    func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
}

@MainActor open class UIViewController: UIResponder {
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open var title: String? {
        get { fatalError() }
        set { fatalError() }
    }
    open func viewDidLoad() { fatalError() }
    open func loadView() { fatalError() }
    open var view: UIView! {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor open class UITableViewController: UIViewController {
    open var tableView: UITableView! {
        get { fatalError() }
        set { fatalError() }
    }
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { fatalError() }
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        fatalError()
    }
    open func tableView(
        _ tableView: UITableView,
        didEndDisplaying cell: UITableViewCell,
        forRowAt indexPath: IndexPath
    ) { fatalError() }
    open func scrollViewDidScroll(_ scrollView: UIScrollView) { fatalError() }
}
