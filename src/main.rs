//! The `tablewright` binary: parse the command line, run, report errors.
//! Exit codes: 0 success, 1 bad input or failure, 2 command-line usage.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = tablewright::cli::Cli::parse_args();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    match tablewright::app::run(&cli, &mut stdout.lock(), &mut stderr.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error worth a message.
        Err(tablewright::Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", tablewright::app::error_text(&e));
            ExitCode::from(e.exit_code())
        }
    }
}
