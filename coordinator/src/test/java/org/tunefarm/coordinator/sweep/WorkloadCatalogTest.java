package org.tunefarm.coordinator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.space.SearchSpace;

class WorkloadCatalogTest {

    @Test void theShippedCatalogIsOnTheClassPath() {
        WorkloadCatalog c = WorkloadCatalog.fromClassPath();
        assertEquals(List.of("camera-720p", "mobilenetv2-224", "resnet18-224", "transformer-block-b1"), List.copyOf(c.names()));
    }

    @Test void classPathCopyMatchesTheConfigsFolder() {
        WorkloadCatalog shipped = WorkloadCatalog.fromClassPath();
        WorkloadCatalog source = WorkloadCatalog.fromDirectory(Path.of("..", "configs", "workloads"));
        for (String n : source.names()) assertEquals(source.get(n), shipped.get(n), n);
    }

    @Test void networksHaveTheirDistinctLayerShapes() {
        WorkloadCatalog c = WorkloadCatalog.fromClassPath();
        var mobilenet = c.get("mobilenetv2-224");
        assertEquals(List.of("conv2d", "depthwise_conv2d", "gemm"), mobilenet.kernels());
        assertEquals(20, mobilenet.layers().stream().filter(l -> l.kernel().equals("conv2d")).count());
        assertEquals(10, mobilenet.layers().stream().filter(l -> l.kernel().equals("depthwise_conv2d")).count());
        // 52 convolutions: the stem, block 1 (depthwise, project), 16 blocks of three, the last 1x1.
        assertEquals(52, mobilenet.layers().stream().filter(l -> !l.kernel().equals("gemm")).mapToInt(WorkloadCatalog.Layer::count).sum());
        var resnet = c.get("resnet18-224");
        assertEquals(20, resnet.layers().stream().filter(l -> l.kernel().equals("conv2d")).mapToInt(WorkloadCatalog.Layer::count).sum());
        assertEquals(Map.of("M", 1, "N", 768, "K", 3072), c.get("transformer-block-b1").layers().get(2).shape());
        for (var w : List.of(mobilenet, resnet)) {
            assertEquals(w.layers().size(), w.layers().stream().map(l -> l.kernel() + l.shape()).distinct().count(), w.name() + " repeats a shape");
        }
    }

    /** Every layer's space on a 2-core board holds the family's default configuration. */
    @Test void everyLayersDefaultConfigIsValid() {
        WorkloadCatalog c = WorkloadCatalog.fromClassPath();
        for (String n : c.names())
            for (var l : c.get(n).layers()) {
                KernelSpec spec = KernelSpecs.get(l.kernel());
                KernelKey key = new KernelKey(l.kernel(), l.shape(), "fp32");
                SearchSpace s = spec.space(key, 2);
                assertTrue(s.isValid(s.index(spec.defaultConfig(key, 2))), n + "/" + l.name());
            }
    }

    @Test void aLayerWithABadShapeNamesFileAndLayer() {
        String yaml = "name: x\nlayers:\n  - {name: l1, kernel: conv2d, shape: {N: 1, C: 3, H: 8, W: 8, K: 4, R: 3, S: 3, stride: 1, pad: 1}}\n";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkloadCatalog.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "x.yaml"));
        assertTrue(e.getMessage().startsWith("x.yaml: layers[0] (l1): shape.dilation"), e.getMessage());
    }
}
