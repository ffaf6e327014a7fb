namespace Example {
    public class Config {
        public const int Max = 10;
        public static readonly string Name = "n", Alias = "a";
        private int count;
        internal int shared;
        public int Timeout;
        public event EventHandler Changed;
        public int Retries { get; set; }

        public void Run() {
            int local = 1;
        }
    }

    public enum Level { Low, High = 2 }

    public interface IConfig {
        int Size { get; }
    }

    class Hidden {
        public int Visible;
    }
}
