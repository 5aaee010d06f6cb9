"""The host service both transports share: sessions, the worker pool, training jobs."""
