package io.baton.store;

import static io.baton.store.RunWriter.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The contract of the operator's listing ({@link RunIndex#pageRuns}) and the change feed ({@link
 * RunIndex#runsChangedAfter}). Every implementation's test runs it through {@link
 * MetadataStoreComplianceSuite}.
 */
public abstract class RunListingComplianceSuite extends MetadataStoreComplianceBase {
  private RunWriter at(Duration offset) {
    return new RunWriter(journal, T0.plus(offset));
  }

  private static JsonNode parse(String text) {
    try {
      return JournalCodec.mapper().readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(text, e);
    }
  }

  private List<UUID> everyPage(RunFilter filter, int limit) {
    List<UUID> seen = new ArrayList<>();
    RunPosition after = null;
    for (int pages = 0; pages < 100; pages++) {
      RunPage page = metadata.pageRuns(filter, after, limit);
      assertThat(page.runs().size()).isLessThanOrEqualTo(limit);
      page.runs().forEach(run -> seen.add(run.runId()));
      if (page.next() == null) {
        return seen;
      }
      assertThat(page.runs()).hasSize(limit);
      after = page.next();
    }
    throw new AssertionError("more than 100 pages");
  }

  private List<UUID> ids(RunFilter filter) {
    return metadata.pageRuns(filter, null, 1000).runs().stream().map(RunRecord::runId).toList();
  }

  @Test
  void pages_visit_every_matching_run_once_newest_first_even_when_creation_times_tie() {
    String flow = unique("flow");
    List<RunRecord> created = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      created.add(metadata.findRun(newRun().create(flow, null).root()).orElseThrow());
    }
    for (int i = 1; i <= 3; i++) {
      created.add(
          metadata.findRun(at(Duration.ofMinutes(i)).create(flow, null).root()).orElseThrow());
    }
    newRun().create(unique("other"), null);
    List<UUID> expected =
        created.stream()
            .sorted(Comparator.comparing(RunPosition::created).reversed())
            .map(RunRecord::runId)
            .toList();

    RunFilter filter = RunFilter.all().withFlow(flow);
    assertThat(everyPage(filter, 3)).containsExactlyElementsOf(expected);
    assertThat(everyPage(filter, 10)).containsExactlyElementsOf(expected);
    assertThat(everyPage(filter, 1)).containsExactlyElementsOf(expected);
  }

  @Test
  void runs_created_while_paging_do_not_shift_the_later_pages() {
    String flow = unique("flow");
    RunWriter oldest = at(Duration.ofMinutes(1)).create(flow, null);
    RunWriter older = at(Duration.ofMinutes(2)).create(flow, null);
    RunWriter newer = at(Duration.ofMinutes(3)).create(flow, null);
    RunWriter newest = at(Duration.ofMinutes(4)).create(flow, null);
    RunFilter filter = RunFilter.all().withFlow(flow);

    RunPage first = metadata.pageRuns(filter, null, 2);
    assertThat(first.runs())
        .extracting(RunRecord::runId)
        .containsExactly(newest.root(), newer.root());
    at(Duration.ofMinutes(5)).create(flow, null);
    at(Duration.ofMinutes(6)).create(flow, null);

    RunPage second = metadata.pageRuns(filter, first.next(), 2);
    assertThat(second.runs())
        .extracting(RunRecord::runId)
        .containsExactly(older.root(), oldest.root());
    assertThat(second.next()).isNull();
  }

  @Test
  void several_statuses_and_the_recoverable_flag_filter_together() {
    String flow = unique("flow");
    RunWriter running = at(Duration.ofMinutes(1)).running(flow, "n", 2);
    RunWriter recoverable = at(Duration.ofMinutes(2)).running(flow, "n", 2).fail("boom", true);
    RunWriter fatal = at(Duration.ofMinutes(3)).running(flow, "n", 2).fail("boom", false);
    RunWriter done = at(Duration.ofMinutes(4)).running(flow, "n", 2).succeed(json("ok", true));
    at(Duration.ofMinutes(5)).create(flow, null);
    RunFilter byFlow = RunFilter.all().withFlow(flow);

    assertThat(ids(byFlow.withStatuses(Set.of(RunStatus.FAILED, RunStatus.SUCCEEDED))))
        .containsExactly(done.root(), fatal.root(), recoverable.root());
    assertThat(everyPage(byFlow.withStatuses(Set.of(RunStatus.FAILED, RunStatus.RUNNING)), 1))
        .containsExactly(fatal.root(), recoverable.root(), running.root());
    assertThat(ids(byFlow.toBuilder().status(RunStatus.FAILED).recoverable(true).build()))
        .containsExactly(recoverable.root());
  }

  @Test
  void the_event_filter_keeps_the_runs_that_event_started() {
    String flow = unique("flow");
    String id = unique("event");
    JsonNode event = parse("{\"source\": \"/shop/a\", \"id\": \"" + id + "\", \"type\": \"t\"}");
    JsonNode other = parse("{\"source\": \"/shop/b\", \"id\": \"" + id + "\", \"type\": \"t\"}");
    RunWriter first = at(Duration.ofMinutes(1)).createFor(flow, event);
    RunWriter second = at(Duration.ofMinutes(2)).createFor(unique("flow"), event);
    RunWriter elsewhere = at(Duration.ofMinutes(3)).createFor(flow, other);
    at(Duration.ofMinutes(4)).create(flow, null);

    assertThat(ids(RunFilter.builder().triggerEvent(new EventRef("/shop/a", id)).build()))
        .containsExactly(second.root(), first.root());
    assertThat(ids(RunFilter.builder().triggerEvent(new EventRef("/shop/b", id)).build()))
        .containsExactly(elsewhere.root());
    assertThat(metadata.findRun(first.root()).orElseThrow().triggerEvent())
        .isEqualTo(new EventRef("/shop/a", id));
  }

  @Test
  void owner_tree_parent_roots_and_idempotency_key_filters() {
    String flow = unique("flow");
    String node = unique("node");
    String key = unique("key");
    RunWriter mine = at(Duration.ofMinutes(1)).running(flow, node, 2);
    UUID child = mine.child(mine.root(), flow);
    UUID grandchild = mine.child(child, flow);
    RunWriter keyed = at(Duration.ofMinutes(2)).create(flow, key);
    at(Duration.ofMinutes(3)).running(flow, unique("node"), 2);

    assertThat(ids(RunFilter.builder().node(node).build())).containsExactly(mine.root());
    assertThat(ids(RunFilter.builder().rootRunId(mine.root()).build()))
        .containsExactlyInAnyOrder(mine.root(), child, grandchild);
    assertThat(ids(RunFilter.builder().parentRunId(child).build())).containsExactly(grandchild);
    assertThat(ids(RunFilter.builder().flowName(flow).rootsOnly(true).build()))
        .hasSize(3)
        .doesNotContain(child, grandchild);
    assertThat(ids(RunFilter.builder().idempotencyKey(key).build())).containsExactly(keyed.root());
    assertThat(
            ids(
                RunFilter.builder()
                    .flowName(flow)
                    .status(RunStatus.RUNNING)
                    .rootsOnly(true)
                    .ownerNotIn(Set.of(node))
                    .build()))
        .hasSize(1)
        .doesNotContain(mine.root());
  }

  @Test
  void time_ranges_include_their_start_and_exclude_their_end() {
    String flow = unique("flow");
    RunWriter first = at(Duration.ofHours(1)).create(flow, null);
    RunWriter second = at(Duration.ofHours(2)).create(flow, null);
    RunWriter third = at(Duration.ofHours(3)).create(flow, null);
    Instant secondCreated = metadata.findRun(second.root()).orElseThrow().createdAt();
    Instant thirdCreated = metadata.findRun(third.root()).orElseThrow().createdAt();
    RunFilter byFlow = RunFilter.all().withFlow(flow);

    assertThat(ids(byFlow.toBuilder().created(secondCreated, thirdCreated).build()))
        .containsExactly(second.root());
    assertThat(ids(byFlow.toBuilder().created(secondCreated, null).build()))
        .containsExactly(third.root(), second.root());
    assertThat(ids(byFlow.toBuilder().created(null, secondCreated).build()))
        .containsExactly(first.root());

    first.after(Duration.ofHours(5)).claim("n", 5); // its row now changed after the others
    Instant firstUpdated = metadata.findRun(first.root()).orElseThrow().updatedAt();
    assertThat(ids(byFlow.toBuilder().updated(firstUpdated, null).build()))
        .containsExactly(first.root());
  }

  @Test
  void input_and_output_filters_match_by_json_containment() {
    String flow = unique("flow");
    RunWriter gold = at(Duration.ofMinutes(1));
    gold.append(
        gold.root(),
        RunCreated.root(
            flow,
            "h",
            parse("{\"customer\": {\"id\": \"c-1\", \"tier\": \"gold\"}, \"items\": [1, 2]}")));
    RunWriter silver = at(Duration.ofMinutes(2));
    silver.append(
        silver.root(),
        RunCreated.root(
            flow,
            "h",
            parse("{\"customer\": {\"id\": \"c-2\", \"tier\": \"silver\"}, \"items\": [3]}")));
    gold.claim("n", 2)
        .status(RunStatus.PENDING, RunStatus.RUNNING)
        .succeed(parse("{\"total\": 12.0}"));
    RunFilter byFlow = RunFilter.all().withFlow(flow);

    assertThat(
            ids(
                byFlow.toBuilder()
                    .inputContains(parse("{\"customer\": {\"tier\": \"gold\"}}"))
                    .build()))
        .containsExactly(gold.root());
    assertThat(ids(byFlow.toBuilder().inputContains(parse("{\"items\": [3]}")).build()))
        .containsExactly(silver.root());
    assertThat(
            ids(
                byFlow.toBuilder()
                    .inputContains(parse("{\"customer\": {\"id\": \"c-3\"}}"))
                    .build()))
        .isEmpty();
    assertThat(ids(byFlow.toBuilder().outputContains(parse("{\"total\": 12}")).build()))
        .containsExactly(gold.root());
  }

  /**
   * The JSON path filters as PostgreSQL's {@code @@} decides them in lax mode: each operator, a
   * missing path, values of another type (unknown, so no match), arrays unwrapped and wrapped.
   */
  @Test
  void input_and_output_path_filters_match_as_lax_sql_json_path_predicates() {
    String flow = unique("flow");
    RunWriter gold = at(Duration.ofMinutes(1));
    gold.append(
        gold.root(),
        RunCreated.root(
            flow,
            "h",
            parse(
                """
                {"customer": {"tier": "gold", "age": 40},
                 "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 5}],
                 "tags": ["x", "y"], "note": null, "vip": true}""")));
    RunWriter silver = at(Duration.ofMinutes(2));
    silver.append(
        silver.root(),
        RunCreated.root(
            flow,
            "h",
            parse(
                """
                {"customer": {"tier": "silver", "age": "40"},
                 "items": [{"sku": "c", "qty": 1}], "tags": [], "vip": false}""")));
    RunWriter bronze = at(Duration.ofMinutes(3));
    bronze.append(
        bronze.root(),
        RunCreated.root(
            flow,
            "h",
            parse("{\"customer\": {\"tier\": \"bronze\"}, \"items\": [], \"name\": \"\u00e9\"}")));
    gold.claim("n", 2)
        .status(RunStatus.PENDING, RunStatus.RUNNING)
        .succeed(parse("{\"total\": 12.0}"));
    UUID a = gold.root();
    UUID b = silver.root();
    UUID c = bronze.root();
    RunFilter byFlow = RunFilter.all().withFlow(flow);

    assertThat(byInput(byFlow, "$.customer.tier == \"gold\"")).containsExactly(a);
    assertThat(byInput(byFlow, "$.customer.tier != \"gold\"")).containsExactlyInAnyOrder(b, c);
    assertThat(byInput(byFlow, "$.customer.age < 41"))
        .as("a string is not < 41")
        .containsExactly(a);
    assertThat(byInput(byFlow, "$.customer.age <= 40")).containsExactly(a);
    assertThat(byInput(byFlow, "$.customer.age > 39")).containsExactly(a);
    assertThat(byInput(byFlow, "$.customer.age >= 40.0")).containsExactly(a);
    assertThat(byInput(byFlow, "$.customer.age == 4e1")).containsExactly(a);
    assertThat(byInput(byFlow, "$.customer.age == \"40\"")).containsExactly(b);
    assertThat(byInput(byFlow, "$.customer.age >= \"3\"")).containsExactly(b);
    assertThat(byInput(byFlow, "$.customer.age != \"40\""))
        .as("a number and a string are not comparable, not even unequal")
        .isEmpty();
    assertThat(byInput(byFlow, "$.customer.tier < 5")).isEmpty();
    assertThat(byInput(byFlow, "$.customer.tier > \"c\"")).containsExactlyInAnyOrder(a, b);
    assertThat(byInput(byFlow, "$.name > \"e\"")).as("by code point").containsExactly(c);
    assertThat(byInput(byFlow, "$.vip == true")).containsExactly(a);
    assertThat(byInput(byFlow, "$.vip < true")).containsExactly(b);
    assertThat(byInput(byFlow, "$.customer == \"gold\""))
        .as("objects compare as unknown")
        .isEmpty();

    assertThat(byInput(byFlow, "exists($.customer.age)")).containsExactlyInAnyOrder(a, b);
    assertThat(byInput(byFlow, "exists($.note)")).as("a null value exists").containsExactly(a);
    assertThat(byInput(byFlow, "$.note == null")).containsExactly(a);
    assertThat(byInput(byFlow, "$.vip != null")).containsExactlyInAnyOrder(a, b);
    assertThat(byInput(byFlow, "$.nosuch.deeper == 1")).isEmpty();
    assertThat(byInput(byFlow, "$.nosuch != 1")).as("nothing selected, nothing unequal").isEmpty();
    assertThat(byInput(byFlow, "exists($.nosuch)")).isEmpty();

    assertThat(byInput(byFlow, "$.items.sku == \"b\""))
        .as("a key of each element")
        .containsExactly(a);
    assertThat(byInput(byFlow, "$.items[1].qty == 5")).containsExactly(a);
    assertThat(byInput(byFlow, "$.items[0].sku == \"c\"")).containsExactly(b);
    assertThat(byInput(byFlow, "$.items[7].sku == \"c\"")).isEmpty();
    assertThat(byInput(byFlow, "$.tags == \"y\""))
        .as("an array compared by its elements")
        .containsExactly(a);
    assertThat(byInput(byFlow, "exists($.items[0])")).containsExactlyInAnyOrder(a, b);
    assertThat(byInput(byFlow, "exists($.tags)"))
        .as("an empty array exists")
        .containsExactlyInAnyOrder(a, b);
    assertThat(byInput(byFlow, "$.customer[0].tier == \"gold\""))
        .as("[0] of a non-array is itself")
        .containsExactly(a);
    assertThat(byInput(byFlow, "$.\"customer\".\"tier\" == \"silver\"")).containsExactly(b);

    assertThat(ids(byFlow.toBuilder().outputPath(JsonPathPredicate.parse("$.total == 12")).build()))
        .containsExactly(a);
    assertThat(
            ids(byFlow.toBuilder().outputPath(JsonPathPredicate.parse("exists($.total)")).build()))
        .as("runs without output match no path")
        .containsExactly(a);
    assertThat(
            ids(
                byFlow.toBuilder()
                    .inputPath(JsonPathPredicate.parse("$.vip == true"))
                    .inputContains(parse("{\"customer\": {\"tier\": \"silver\"}}"))
                    .build()))
        .as("with containment, both must hold")
        .isEmpty();
  }

  private List<UUID> byInput(RunFilter filter, String path) {
    return ids(filter.toBuilder().inputPath(JsonPathPredicate.parse(path)).build());
  }

  @Test
  void a_parked_runs_wait_is_kept_on_its_row_and_filters_by_its_kind() {
    String flow = unique("flow");
    Instant due = T0.plus(Duration.ofHours(3));
    RunWait retry = RunWait.retry("call", 2, 5, due);
    RunWriter approval =
        at(Duration.ofMinutes(1)).running(flow, "n", 2).park(null, RunWait.approval("ask"));
    RunWriter retrying = at(Duration.ofMinutes(2)).running(flow, "n", 2).park(due, retry);
    RunWriter timer =
        at(Duration.ofMinutes(3)).running(flow, "n", 2).park(due, RunWait.timer("nap", due));
    RunWriter child =
        at(Duration.ofMinutes(4)).running(flow, "n", 2).park(null, RunWait.child("call"));
    RunWriter unrecorded = at(Duration.ofMinutes(5)).running(flow, "n", 2).park(due);
    RunWriter woken =
        at(Duration.ofMinutes(6))
            .running(flow, "n", 2)
            .park(null, RunWait.approval("ask"))
            .claim("m", 3)
            .status(RunStatus.WAITING, RunStatus.RUNNING);
    RunWriter finished =
        at(Duration.ofMinutes(7))
            .running(flow, "n", 2)
            .park(due, RunWait.timer("nap", due))
            .claim("m", 3)
            .status(RunStatus.WAITING, RunStatus.RUNNING)
            .succeed(json("ok", true));
    RunFilter byFlow = RunFilter.all().withFlow(flow);

    assertThat(metadata.findRun(retrying.root()).orElseThrow().waiting()).isEqualTo(retry);
    assertThat(metadata.findRun(unrecorded.root()).orElseThrow().waiting()).isNull();
    assertThat(metadata.findRun(woken.root()).orElseThrow().waiting()).isNull();
    assertThat(metadata.findRun(finished.root()).orElseThrow().waiting()).isNull();
    assertThat(ids(byFlow.toBuilder().waitingFor(RunWait.Kind.APPROVAL).build()))
        .containsExactly(approval.root());
    assertThat(ids(byFlow.toBuilder().waitingFor(RunWait.Kind.RETRY).build()))
        .containsExactly(retrying.root());
    assertThat(ids(byFlow.toBuilder().waitingFor(RunWait.Kind.TIMER).build()))
        .containsExactly(timer.root());
    assertThat(
            ids(
                byFlow.toBuilder()
                    .status(RunStatus.WAITING)
                    .waitingFor(RunWait.Kind.CHILD)
                    .build()))
        .containsExactly(child.root());
    assertThat(
            ids(
                byFlow.toBuilder()
                    .status(RunStatus.WAITING, RunStatus.FAILED)
                    .waitingFor(RunWait.Kind.APPROVAL)
                    .build()))
        .containsExactly(approval.root());
    assertThat(
            ids(
                byFlow.toBuilder()
                    .status(RunStatus.RUNNING)
                    .waitingFor(RunWait.Kind.APPROVAL)
                    .build()))
        .as("a run that runs again waits for nothing")
        .isEmpty();
    assertThat(metadata.pageRuns(byFlow, null, 100).runs())
        .filteredOn(run -> run.runId().equals(timer.root()))
        .singleElement()
        .satisfies(run -> assertThat(run.waiting()).isEqualTo(RunWait.timer("nap", due)));
  }

  @Test
  void a_claim_of_a_parked_run_keeps_its_wait() {
    RunWait wait = RunWait.approval("ask");
    RunWriter parked =
        at(Duration.ofMinutes(1)).running(unique("flow"), "n", 2).park(null, wait).claim("m", 3);
    assertThat(metadata.findRun(parked.root()).orElseThrow().waiting()).isEqualTo(wait);
    assertThat(
            ids(
                RunFilter.builder()
                    .rootRunId(parked.root())
                    .waitingFor(RunWait.Kind.APPROVAL)
                    .build()))
        .containsExactly(parked.root());
  }

  @Test
  void the_change_feed_returns_each_run_at_its_latest_change_oldest_first() {
    RunWriter a = at(Duration.ofMinutes(1)).create("f", null);
    RunWriter b = at(Duration.ofMinutes(2)).create("f", null);
    RunWriter c = at(Duration.ofMinutes(3)).create("f", null);
    RunPosition start = new RunPosition(T0, new UUID(0, 0));

    assertThat(metadata.runsChangedAfter(start, 10))
        .extracting(RunRecord::runId)
        .containsExactly(a.root(), b.root(), c.root());

    a.after(Duration.ofMinutes(10)).claim("n", 3).status(RunStatus.PENDING, RunStatus.RUNNING);
    List<RunRecord> changed = metadata.runsChangedAfter(start, 10);
    assertThat(changed).extracting(RunRecord::runId).containsExactly(b.root(), c.root(), a.root());
    assertThat(changed.get(2).status()).isEqualTo(RunStatus.RUNNING);

    RunPosition afterB = RunPosition.updated(changed.get(0));
    assertThat(metadata.runsChangedAfter(afterB, 1))
        .extracting(RunRecord::runId)
        .containsExactly(c.root());
  }
}
