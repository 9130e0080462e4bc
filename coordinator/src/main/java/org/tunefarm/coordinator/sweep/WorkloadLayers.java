package org.tunefarm.coordinator.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which shapes a sweep naming a workload tunes: the layers of its kernel, or only the layers it
 * lists by name; a shape the network runs in several layers is tuned once.
 */
final class WorkloadLayers {

    private WorkloadLayers() {}

    /** @throws SpecException naming {@code layers[i]} or {@code kernel} */
    static List<Map<String, Integer>> shapes(WorkloadCatalog.Workload workload, String kernel, JsonNode layers) {
        List<WorkloadCatalog.Layer> chosen = new ArrayList<>();
        if (layers == null || layers.isNull()) {
            for (WorkloadCatalog.Layer l : workload.layers()) if (l.kernel().equals(kernel)) chosen.add(l);
            if (chosen.isEmpty()) throw new SpecException("kernel", "workload " + workload.name() + " has no " + kernel + " layers (it has " + workload.kernels() + ")");
        } else {
            if (!layers.isArray() || layers.isEmpty()) throw new SpecException("layers", "must be a non-empty list of layer names");
            for (int i = 0; i < layers.size(); i++) {
                String f = "layers[" + i + "]";
                if (!layers.get(i).isTextual()) throw new SpecException(f, "must be a layer name");
                String name = layers.get(i).textValue();
                WorkloadCatalog.Layer l = workload.layers().stream().filter(x -> x.name().equals(name)).findFirst()
                        .orElseThrow(() -> new SpecException(f, "workload " + workload.name() + " has no layer '" + name + "' (its layers: "
                                + workload.layers().stream().map(WorkloadCatalog.Layer::name).toList() + ")"));
                if (!l.kernel().equals(kernel)) throw new SpecException(f, "layer '" + name + "' is a " + l.kernel() + " layer, not " + kernel);
                chosen.add(l);
            }
        }
        Set<Map<String, Integer>> shapes = new LinkedHashSet<>();
        for (WorkloadCatalog.Layer l : chosen) shapes.add(l.shape());
        return List.copyOf(shapes);
    }
}
