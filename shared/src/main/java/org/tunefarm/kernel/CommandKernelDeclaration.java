package org.tunefarm.kernel;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an agent tells the farm about a command kernel from its own config: everything the
 * coordinator needs to search it, and nothing about how the board builds or runs it (that stays
 * on the board). Sent in {@link org.tunefarm.protocol.Register}; checked by {@link CommandKernelSpec}.
 *
 * @param name          the operation name sweeps use, e.g. {@code c_sgemm}
 * @param dimensions    shape dimension names, in display order
 * @param parameters    parameter name → its ordered domain (integers or strings)
 * @param constraints   constraint expressions over the parameters
 * @param defaultConfig the untuned configuration, measured as the baseline ({@code default} in JSON)
 * @param flops         integer formula over the dimensions, e.g. {@code 2*M*N*K}; "0" when not meaningful
 * @param dtypes        element types; fp32 when omitted
 */
public record CommandKernelDeclaration(String name, List<String> dimensions, Map<String, List<Object>> parameters,
                                       List<String> constraints, @JsonProperty("default") Map<String, Object> defaultConfig,
                                       String flops, List<String> dtypes) {

    public CommandKernelDeclaration {
        dimensions = dimensions == null ? List.of() : List.copyOf(dimensions);
        parameters = parameters == null ? Map.of() : domains(parameters);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
        defaultConfig = defaultConfig == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(normalised(defaultConfig)));
        flops = flops == null || flops.isBlank() ? "0" : flops;
        dtypes = dtypes == null || dtypes.isEmpty() ? List.of("fp32") : List.copyOf(dtypes);
    }

    /** Keeps declaration order (it is the order of the space's digits) and makes values comparable. */
    private static Map<String, List<Object>> domains(Map<String, List<Object>> in) {
        Map<String, List<Object>> out = new LinkedHashMap<>();
        for (var e : in.entrySet()) {
            List<Object> vs = new ArrayList<>();
            if (e.getValue() != null) for (Object v : e.getValue()) vs.add(value(v));
            out.put(e.getKey(), Collections.unmodifiableList(vs));
        }
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, Object> normalised(Map<String, Object> in) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (var e : in.entrySet()) out.put(e.getKey(), value(e.getValue()));
        return out;
    }

    /** JSON and YAML readers may give Long or Short for small integers; the space holds Integers. */
    private static Object value(Object v) {
        if (v instanceof Number n && n.doubleValue() == n.longValue() && n.longValue() >= Integer.MIN_VALUE && n.longValue() <= Integer.MAX_VALUE) {
            return n.intValue();
        }
        return v;
    }
}
