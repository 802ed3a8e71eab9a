package org.elasticam.report.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.report.RunHistory;
import org.junit.jupiter.api.Test;

class EventTest {

  @Test
  void everyEventIsFoundByItsWireNameAndNamesAreUnique() {
    Set<String> names = new HashSet<>();
    for (Event e : Event.values()) {
      assertTrue(names.add(e.wireName()), "one event per name: " + e.wireName());
      assertSame(e, Event.byName(e.wireName()));
    }
    assertNull(Event.byName("no_such_event"));
  }

  @Test
  void aWriterNamingAFieldItsEventDoesNotDeclareFails() {
    assertTrue(Event.TASK_END.checkFields(EventFields.STAGE_ID, 1, EventFields.STATUS, "SUCCESS"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Event.TASK_END.line(0, EventFields.STAGE_ID, 1, "stageid", 2));
    assertTrue(e.getMessage().contains("task_end has no field stageid"), e.getMessage());
  }

  @Test
  void aLineHasTsAndEventFirstThenTheFieldsInTheOrderGiven() {
    Map<String, Object> line = Event.STAGE_SUBMITTED.line(7, EventFields.STAGE_ID, 3, EventFields.NAME, "map",
        EventFields.TASKS, 4);
    assertEquals(List.of("ts", "event", "stage_id", "name", "tasks"), List.copyOf(line.keySet()));
    assertEquals("stage_submitted", line.get("event"));
  }

  @Test
  void theReaderReportsWhatLiesBeyondTheSchemaAndReadsPastIt() throws Exception {
    String log = """
        {"ts":1,"event":"app_start","app_id":"a","attempt":1}
        {"ts":2,"event":"stage_submitted","stage_id":0,"name":"map","tasks":2,"colour":"blue"}
        {"ts":3,"event":"something_new","x":1}
        {"ts":4,"event":"app_end","final_status":"SUCCEEDED"}
        """;
    RunHistory h = RunHistory.read(new BufferedReader(new StringReader(log)));
    assertEquals(Set.of("stage_submitted.colour", "something_new"), h.beyondSchema());
    assertEquals(1, h.stages().size());
  }
}
