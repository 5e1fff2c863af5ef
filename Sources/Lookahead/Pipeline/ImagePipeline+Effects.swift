// Lookahead — turning the task graph's actions into effects, and performing them outside the lock.

import Foundation

extension ImagePipeline {
    /// What to do once the lock is released.
    struct Effects {
        enum Delivery {
            case progress(completed: Int64, total: Int64?)
            case success(TaskGraph.StageResult)
            case failure(Error)
        }

        var starts: [(operation: Int, token: OperationToken, work: TaskGraph.Work, priority: ImageRequest.Priority)] =
            []
        var cancels: [OperationToken] = []
        var deliveries: [(task: any TaskReceiver, delivery: Delivery)] = []
        var events: [Event] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Resolves task identifiers to tasks (forgetting finished ones) under the lock.
    static func resolve(_ actions: [TaskGraph.Action], in state: inout State, removing removed: Int? = nil) -> Effects {
        var effects = Effects()
        if let removed { state.tasks[removed] = nil }
        for action in actions {
            switch action {
            case .start(let operation, let token, let work, let priority):
                effects.starts.append((operation, token, work, priority))
            case .cancel(let token):
                effects.cancels.append(token)
            case .progress(let id, let completed, let total):
                if let task = state.tasks[id] {
                    effects.deliveries.append((task, .progress(completed: completed, total: total)))
                }
            case .finish(let id, let result):
                if let task = state.tasks.removeValue(forKey: id) {
                    switch result {
                    case .success(let output): effects.deliveries.append((task, .success(output)))
                    case .failure(let error): effects.deliveries.append((task, .failure(error)))
                    }
                }
            case .coalesced(let id, _):
                if let task = state.tasks[id] { effects.events.append(.coalesced(task.request)) }
            case .loadCancelled(let url):
                if let url { effects.events.append(.dataLoadCancelled(url)) }
            }
        }
        if state.liveCount == 0, !state.idleWaiters.isEmpty {
            effects.idleWaiters = state.idleWaiters
            state.idleWaiters.removeAll()
        }
        return effects
    }

    /// Performs effects: cancels first, then deliveries, then new work.
    func perform(_ effects: Effects) {
        for token in effects.cancels { token.cancel() }
        if let handler = configuration.eventHandler {
            for event in effects.events { handler(event) }
        }
        for (task, delivery) in effects.deliveries {
            switch delivery {
            case .progress(let completed, let total):
                task.didProgress(completed: completed, total: total)
            case .success(let value):
                task.didComplete(.success(value), in: self)
            case .failure(let error):
                task.didComplete(.failure(error), in: self)
            }
        }
        for start in effects.starts {
            self.start(operation: start.operation, token: start.token, work: start.work, priority: start.priority)
        }
        for waiter in effects.idleWaiters { waiter.resume() }
    }
}

extension ImagePipeline {
    /// The response for decoded output, stored in the memory cache unless the request says not to.
    func response(for output: TaskGraph.Output, request: ImageRequest) -> ImageResponse {
        if !request.options.contains(.disableMemoryCacheWrites) {
            configuration.memoryCache?.store(output.image, for: request.imageKey)
        }
        return ImageResponse(
            image: output.image,
            request: request,
            cacheType: output.cacheType,
            httpResponse: output.response
        )
    }
}
