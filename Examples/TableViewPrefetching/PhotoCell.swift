// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Example (not built here): the demo's cell: an 80×80 rounded picture with a spinner, and a label.

import Lookahead
import LookaheadUI
import UIKit

final class PhotoCell: UITableViewCell {
    static let reuseIdentifier = "PhotoCell"
    let photo = SpinnerImageView()
    let title = UILabel()

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        let stack = UIStackView(arrangedSubviews: [photo, title])
        stack.axis = .horizontal
        stack.spacing = 16
        stack.alignment = .center
        stack.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(stack)
        NSLayoutConstraint.activate([
            photo.widthAnchor.constraint(equalToConstant: 80),
            photo.heightAnchor.constraint(equalToConstant: 80),
            stack.leadingAnchor.constraint(equalTo: contentView.layoutMarginsGuide.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: contentView.layoutMarginsGuide.trailingAnchor),
            stack.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
        ])
    }

    required init?(coder: NSCoder) { nil }
}

/// An image view with a spinner while its image loads: an `ImageDisplaying` view of the app's own, which shows
/// what the library decides and keeps the library's loader.
final class SpinnerImageView: UIView, ImageDisplaying {
    private let imageView = UIImageView()
    private let spinner = UIActivityIndicatorView(style: .medium)
    var lookaheadBinding: ImageViewBinding?

    override init(frame: CGRect) {
        super.init(frame: frame)
        imageView.contentMode = .scaleAspectFill
        imageView.clipsToBounds = true
        imageView.layer.cornerRadius = 8
        imageView.backgroundColor = .secondarySystemBackground
        for view in [imageView, spinner] {
            view.translatesAutoresizingMaskIntoConstraints = false
            addSubview(view)
            NSLayoutConstraint.activate([
                view.centerXAnchor.constraint(equalTo: centerXAnchor),
                view.centerYAnchor.constraint(equalTo: centerYAnchor),
            ])
        }
        NSLayoutConstraint.activate([
            imageView.widthAnchor.constraint(equalTo: widthAnchor),
            imageView.heightAnchor.constraint(equalTo: heightAnchor),
        ])
    }

    required init?(coder: NSCoder) { nil }

    func lookaheadDisplay(_ image: UIImage?, transition: ImageTransition) {
        if case .loading = lookaheadBinding?.state { spinner.startAnimating() } else { spinner.stopAnimating() }
        imageView.lookaheadDisplay(image, transition: transition)  // UIImageView's own: the fade
    }
}
