package io.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonPathPredicateTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "$.a.b[0].c == \"x\"        | $.\"a\".\"b\"[0].\"c\" == \"x\"",
        "  $.a==1                   | $.\"a\" == 1",
        "$.a != -1.50               | $.\"a\" != -1.50",
        "$.a < 1e3                  | $.\"a\" < 1000",
        "$.a <= 2E-2                | $.\"a\" <= 0.02",
        "$.a > true                 | $.\"a\" > true",
        "$.a >= null                | $.\"a\" >= null",
        "$.\"we\\\"ird key\" == false | $.\"we\\\"ird key\" == false",
        "$.a == \"tab\\there \\u00e9\" | $.\"a\" == \"tab\\u0009here é\"",
        "exists( $.a[12].b_2 )      | exists($.\"a\"[12].\"b_2\")",
      })
  void reads_the_subset_and_writes_it_with_every_key_quoted(String expression, String normalized) {
    assertThat(JsonPathPredicate.parse(expression).normalized()).isEqualTo(normalized);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "``                       | 1  | expected '$' (at the end)",
        "a == 1                   | 1  | expected '$'",
        "$ == 1                   | 2  | expected .key or [index] after $",
        "$.a = 1                  | 5  | expected ==, !=, <, <=, > or >=",
        "$.a == 'x'               | 8  | expected a JSON string, number, true, false or null",
        "$.a == 01                | 9  | unexpected '1' after the predicate",
        "$.a == 1 && $.b == 2     | 10 | unexpected '&' after the predicate",
        "$.a[-1] == 1             | 5  | expected an array index (0 or more)",
        "$.a[1 == 1               | 6  | expected ']'",
        "$.1a == 1                | 3  | expected a key (letters, digits and _, or a quoted string)",
        "$.a == \"open            | 8  | the string is not closed",
        "$.a == \"\\q\"           | 10 | unknown escape \\q",
        "$.a == \"\\u0000\"       | 9  | \\u0000 is not allowed",
        "$.a == \"\\ud800\"       | 8  | the string has a lone surrogate",
        "$.a == 1e999999          | 8  | the number is out of range",
        "$.a == -                 | 9  | expected a digit (at the end)",
        "exists($.a               | 11 | expected ')' (at the end)",
        "$.a[9999999999] == 1     | 5  | the array index is too large",
      })
  void a_bad_expression_names_the_position_and_what_was_expected(
      String expression, int position, String reason) {
    assertThatThrownBy(() -> JsonPathPredicate.parse(expression))
        .isInstanceOfSatisfying(
            InvalidJsonPathException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.position()).isEqualTo(position);
            });
  }

  @Test
  void equal_when_their_normalized_forms_are() {
    assertThat(JsonPathPredicate.parse("$.a==1.0"))
        .isEqualTo(JsonPathPredicate.parse("$.\"a\"  ==  1.0"))
        .hasSameHashCodeAs(JsonPathPredicate.parse("$.\"a\"  ==  1.0"));
  }
}
