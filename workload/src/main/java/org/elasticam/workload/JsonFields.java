package org.elasticam.workload;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Typed, checked access to the fields of one JSON object, each failure naming the field by its
 * path in the line ({@code tasks[3].duration_ms}) and what was found instead.
 */
final class JsonFields {

  /**
   * No real trace comes near this (it is 285,000 years); bounding times here keeps every sum of
   * two of them far from overflow.
   */
  static final long MAX_MILLIS = 1L << 53;

  private static final int SNIPPET_CHARS = 40;

  private final JsonNode object;
  private final String path;

  private JsonFields(JsonNode object, String path) {
    this.object = object;
    this.path = path;
  }

  /** @param path where this object sits in the line, empty for the line itself */
  static JsonFields of(JsonNode node, String path) {
    if (!node.isObject()) {
      String where = path.isEmpty() ? "the line" : path;
      throw new TraceProblem(where + ": expected a JSON object, found " + describe(node));
    }
    return new JsonFields(node, path);
  }

  String where(String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  int nonNegativeInt(String field) {
    return nonNegativeInt(required(field), where(field));
  }

  static int nonNegativeInt(JsonNode value, String where) {
    long v = integer(value, where);
    if (v > Integer.MAX_VALUE) {
      throw new TraceProblem(where + ": out of range, got " + v);
    }
    return (int) v;
  }

  long millis(String field) {
    return millis(required(field), where(field));
  }

  /** A time the generator may write as null when the log lacked it; then {@code ifNull} decides. */
  long optionalMillis(String field, LongSupplier ifNull) {
    JsonNode value = present(field);
    return value.isNull() ? ifNull.getAsLong() : millis(value, where(field));
  }

  String text(String field) {
    JsonNode value = required(field);
    if (!value.isTextual()) {
      throw new TraceProblem(where(field) + ": expected a string, found " + describe(value));
    }
    return value.textValue();
  }

  /** A string the generator may write as null when the log lacked it; null reads as empty. */
  String optionalText(String field) {
    return present(field).isNull() ? "" : text(field);
  }

  boolean bool(String field) {
    JsonNode value = required(field);
    if (!value.isBoolean()) {
      throw new TraceProblem(where(field) + ": expected true or false, found " + describe(value));
    }
    return value.booleanValue();
  }

  List<JsonNode> array(String field) {
    JsonNode value = required(field);
    if (!value.isArray()) {
      throw new TraceProblem(where(field) + ": expected an array, found " + describe(value));
    }
    List<JsonNode> elements = new ArrayList<>(value.size());
    value.elements().forEachRemaining(elements::add);
    return elements;
  }

  /** One line for a user out of Jackson's message, which may span lines and quote the source. */
  static String malformed(JsonProcessingException e) {
    String message = e.getOriginalMessage() == null ? "unreadable" : e.getOriginalMessage();
    if (message.contains("FAIL_ON_TRAILING_TOKENS")) {
      message = "more than one JSON value on the line";
    }
    message = message.lines().findFirst().orElse("")
        .replaceAll("\\s*\\([^()]*\\[Source:.*$", "")
        .replaceAll("\\s*\\[Source:.*$", "");
    JsonLocation at = e.getLocation();
    String column = at == null || at.getColumnNr() < 1 ? "" : " at column " + at.getColumnNr();
    return "malformed JSON" + column + ": " + snippet(message, 200);
  }

  static String quote(String text) {
    return "\"" + snippet(text, SNIPPET_CHARS) + "\"";
  }

  private JsonNode present(String field) {
    JsonNode value = object.get(field);
    if (value == null) {
      throw new TraceProblem("missing required field " + where(field));
    }
    return value;
  }

  private JsonNode required(String field) {
    JsonNode value = present(field);
    if (value.isNull()) {
      throw new TraceProblem(where(field) + ": must not be null");
    }
    return value;
  }

  private static long millis(JsonNode value, String where) {
    long v = integer(value, where);
    if (v > MAX_MILLIS) {
      throw new TraceProblem(where + ": out of range (at most 2^53 ms), got " + v);
    }
    return v;
  }

  private static long integer(JsonNode value, String where) {
    if (!value.isIntegralNumber()) {
      throw new TraceProblem(where + ": expected an integer, found " + describe(value));
    }
    if (!value.canConvertToLong()) {
      throw new TraceProblem(where + ": out of range, got " + snippet(value.asText(), SNIPPET_CHARS));
    }
    long v = value.longValue();
    if (v < 0) {
      throw new TraceProblem(where + ": must not be negative, got " + v);
    }
    return v;
  }

  private static String describe(JsonNode value) {
    return switch (value.getNodeType()) {
      case STRING -> "a string " + quote(value.textValue());
      case NUMBER -> (value.isIntegralNumber() ? "the number " : "a fractional number ")
          + snippet(value.asText(), SNIPPET_CHARS);
      case BOOLEAN -> value.asText();
      case NULL -> "null";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      default -> value.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }

  private static String snippet(String text, int max) {
    String oneLine = text.replaceAll("\\p{Cntrl}", " ");
    return oneLine.length() <= max ? oneLine : oneLine.substring(0, max) + "…";
  }
}
