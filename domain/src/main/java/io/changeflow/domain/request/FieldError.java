package io.changeflow.domain.request;

/** One problem with one field of a submission, safe to show to a person. */
public record FieldError(String field, String code, String message) {}
