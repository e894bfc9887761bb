package io.imcore.console.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusHistoryTest {

    /** A query_range answer in Prometheus's HTTP API format: a matrix, each value [unix time, "number"]. */
    private static final String ANSWER = """
            {"status":"success","data":{"resultType":"matrix","result":[
              {"metric":{"channel":"vendor_b"},"values":[[1000,"2.5"],[1120,"NaN"]]},
              {"metric":{"channel":"ios"},"values":[[1060,"4"],[1180,"1"],[5000,"9"]]}
            ]}}""";

    @Test
    @SuppressWarnings("unchecked")
    void aSeriesPerChannelInNameOrderOnOneXPerStepWithGapsAsNull() throws Exception {
        Map<String, Object> columns = PrometheusHistory.columns(new ObjectMapper().readTree(ANSWER), 1000, 1180);

        assertEquals(List.of(1000L, 1060L, 1120L, 1180L), columns.get("x"));
        List<Map<String, Object>> series = (List<Map<String, Object>>) columns.get("series");
        assertEquals(List.of("ios", "vendor_b"), series.stream().map(s -> s.get("label")).toList());
        // a point outside the range is dropped; NaN (a rate over no samples) is a gap, not a number
        assertArrayEquals(new Double[] {null, 4.0, null, 1.0}, (Double[]) series.get(0).get("values"));
        assertArrayEquals(new Double[] {2.5, null, null, null}, (Double[]) series.get(1).get("values"));
    }
}
