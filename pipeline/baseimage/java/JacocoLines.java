package lolbench;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ISourceFileCoverage;
import org.jacoco.core.tools.ExecFileLoader;

/**
 * Covered lines per execution-data file (lolbench, pipeline/coverage/jacoco.go):
 *
 *   java -cp ... lolbench.JacocoLines OUT CLASSES_DIRS EXEC...
 *
 * CLASSES_DIRS is a path list of compiled class folders. For each EXEC file
 * OUT gets one line per source file with covered lines:
 * "EXEC-NAME TAB package/File.java TAB 3,4,9". A line counts as covered when
 * any of its instructions ran (JaCoCo's partly or fully covered).
 */
public final class JacocoLines {
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: JacocoLines OUT CLASSES_DIRS [EXEC...]");
            System.exit(2);
        }
        List<File> classes = new ArrayList<>();
        for (String d : args[1].split(File.pathSeparator)) {
            if (!d.isEmpty() && new File(d).isDirectory()) {
                classes.add(new File(d));
            }
        }
        try (PrintWriter out = new PrintWriter(new File(args[0]), StandardCharsets.UTF_8.name())) {
            for (String exec : Arrays.asList(args).subList(2, args.length)) {
                ExecFileLoader loader = new ExecFileLoader();
                loader.load(new File(exec));
                CoverageBuilder builder = new CoverageBuilder();
                Analyzer analyzer = new Analyzer(loader.getExecutionDataStore(), builder);
                for (File c : classes) {
                    analyzer.analyzeAll(c);
                }
                String name = new File(exec).getName();
                for (ISourceFileCoverage f : builder.getSourceFiles()) {
                    StringBuilder lines = new StringBuilder();
                    for (int l = f.getFirstLine(); l >= 0 && l <= f.getLastLine(); l++) {
                        int s = f.getLine(l).getStatus();
                        if (s == ICounter.FULLY_COVERED || s == ICounter.PARTLY_COVERED) {
                            lines.append(lines.length() > 0 ? "," : "").append(l);
                        }
                    }
                    if (lines.length() > 0) {
                        out.println(name + "\t" + f.getPackageName() + "/" + f.getName() + "\t" + lines);
                    }
                }
            }
        }
    }
}
