"""The wire format: constants and error codes, the result model, the message models."""
