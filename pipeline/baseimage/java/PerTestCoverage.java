package lolbench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Per-test coverage in one test run (lolbench, pipeline/coverage/jacoco.go):
 * a JUnit Platform listener that takes the JaCoCo agent's execution data at
 * the start and at the end of every test, resetting it each time. What ran
 * between two tests goes to setup.exec, what ran during test N to tN.exec,
 * and index.tsv names each N: class (binary name), method, unique id.
 *
 * It is registered through META-INF/services and does nothing unless
 * LOLBENCH_PER_TEST_DIR is set, so a jar on the test class path changes no
 * other run. The agent is reached by reflection: it is on the system class
 * path when the JVM was started with -javaagent.
 */
public final class PerTestCoverage implements TestExecutionListener {
    private final Path dir;
    private Object agent;
    private Method executionData;
    private int n;

    public PerTestCoverage() {
        String d = System.getenv("LOLBENCH_PER_TEST_DIR");
        dir = d == null || d.isEmpty() ? null : Paths.get(d);
        if (dir == null) {
            return;
        }
        try {
            Files.createDirectories(dir);
            Class<?> rt = Class.forName("org.jacoco.agent.rt.RT", true, ClassLoader.getSystemClassLoader());
            agent = rt.getMethod("getAgent").invoke(null);
            executionData = Class.forName("org.jacoco.agent.rt.IAgent", true, ClassLoader.getSystemClassLoader())
                    .getMethod("getExecutionData", boolean.class);
        } catch (ReflectiveOperationException | IOException e) {
            throw new IllegalStateException("lolbench per-test coverage: no JaCoCo agent (run with -javaagent:jacocoagent.jar)", e);
        }
    }

    private byte[] take() {
        try {
            return (byte[]) executionData.invoke(agent, true);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("lolbench per-test coverage: reading the JaCoCo agent", e);
        }
    }

    private void write(String name, byte[] data, boolean append) {
        try {
            Files.write(dir.resolve(name), data, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void executionStarted(TestIdentifier id) {
        if (dir != null && id.isTest()) {
            write("setup.exec", take(), true);
        }
    }

    @Override
    public synchronized void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (dir == null || !id.isTest()) {
            return;
        }
        n++;
        write("t" + n + ".exec", take(), false);
        String cls = "", method = "";
        TestSource src = id.getSource().orElse(null);
        if (src instanceof MethodSource) {
            cls = ((MethodSource) src).getClassName();
            method = ((MethodSource) src).getMethodName();
        }
        String line = n + "\t" + clean(cls) + "\t" + clean(method) + "\t" + clean(id.getUniqueId()) + "\n";
        write("index.tsv", line.getBytes(StandardCharsets.UTF_8), true);
    }

    private static String clean(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
