package org.tunefarm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The conv2d and depthwise_conv2d layers of MobileNetV2 from the workload catalog
 * (configs/workloads/mobilenetv2.yaml, copied into the bench jar), read here rather than through
 * the coordinator's WorkloadCatalog so the bench jar does not pull in the coordinator.
 */
record ConvLayers(List<Layer> conv2d, List<Layer> depthwise) {

    record Layer(String name, Map<String, Integer> shape, int count) {}

    static final String RESOURCE = "/workloads/mobilenetv2.yaml";

    /**
     * The default subset: the 3x3 stride-2 stem, 1x1 expands and projects at 112, 56, 14 and 7
     * pixels, and the widest layer. It spans the shapes the network spends its conv2d time on
     * (few channels on big images, many channels on small ones) at a third of the run time.
     */
    static final List<String> SUBSET = List.of("conv1", "block2-expand", "block3-project", "block8-expand", "block12-project", "conv-last");

    /** Depthwise layers of the default subset: stride 2 and 1, from 112 pixels and 32 channels down to 7 pixels and 960. */
    static final List<String> DEPTHWISE_SUBSET = List.of("block1-dw", "block2-dw", "block3-dw", "block8-dw", "block15-dw");

    static ConvLayers mobileNetV2() throws IOException {
        try (InputStream in = ConvLayers.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IOException(RESOURCE + " is missing from the bench jar");
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(in);
            List<Layer> conv = new ArrayList<>(), depthwise = new ArrayList<>();
            for (JsonNode l : root.path("layers")) {
                String kernel = l.path("kernel").asText();
                if (!kernel.equals("conv2d") && !kernel.equals("depthwise_conv2d")) continue;
                Map<String, Integer> shape = new LinkedHashMap<>();
                l.path("shape").fields().forEachRemaining(e -> shape.put(e.getKey(), e.getValue().asInt()));
                (kernel.equals("conv2d") ? conv : depthwise).add(new Layer(l.path("name").asText(), shape, l.path("count").asInt(1)));
            }
            return new ConvLayers(conv, depthwise);
        }
    }

    /** The layers named in {@link #SUBSET}, in network order. */
    List<Layer> subset() {
        return conv2d.stream().filter(l -> SUBSET.contains(l.name())).toList();
    }

    /** The depthwise layers named in {@link #DEPTHWISE_SUBSET}, in network order. */
    List<Layer> depthwiseSubset() {
        return depthwise.stream().filter(l -> DEPTHWISE_SUBSET.contains(l.name())).toList();
    }

    /**
     * What kind of layer it is, for the comparison by type: {@code first} (the 3-channel stem),
     * {@code pointwise} (1x1), {@code depthwise}, else {@code RxS}.
     */
    static String type(String op, Map<String, Integer> shape) {
        if (op.equals("depthwise_conv2d")) return "depthwise";
        if (shape.get("C") == 3) return "first";
        if (shape.get("R") == 1 && shape.get("S") == 1) return "pointwise";
        return shape.get("R") + "x" + shape.get("S");
    }
}
